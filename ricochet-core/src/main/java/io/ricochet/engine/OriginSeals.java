package io.ricochet.engine;

/**
 * The origin's seal on a data packet: the authentication trailer its origin sent the DATA frame with. A receiver
 * keeps the seal of each packet it puts in a repair and writes it into the repair's entry; the node that rebuilds
 * the packet by XOR checks the rebuilt bytes against it before delivery, so a member that XORs the wrong bytes
 * (a bug, corrupted memory, or a forged repair) cannot make another node deliver bytes the origin never sent
 * (docs/design/security.md, "Recovered packets").
 *
 * <p>{@link #NONE} (an unauthenticated cluster, the simulator) has no seals: repairs carry none and every rebuilt
 * packet is taken as it is. One instance per engine thread: implementations keep scratch state.
 */
public interface OriginSeals {
    /** No seals: length 0, nothing copied, every packet accepted. */
    OriginSeals NONE = new OriginSeals() {
        @Override
        public int length() {
            return 0;
        }

        @Override
        public boolean verify(int origin, int group, long seqno, byte[] payload, int offset, int length,
                              byte[] seal, int sealOffset) {
            return true;
        }

        @Override
        public String toString() {
            return "no origin seals";
        }
    };

    /**
     * Bytes of one seal; 0 for none. When it is not 0, the driver hands the engine every frame followed in its
     * buffer by the datagram's trailer, and a DATA frame's seal is the {@code length()} bytes after the frame.
     */
    int length();

    /**
     * Whether {@code payload[offset, offset + length)} is the packet (origin, group, seqno) exactly as its origin
     * sealed it with {@code seal[sealOffset, sealOffset + length())}. Never throws for any bytes.
     */
    boolean verify(int origin, int group, long seqno, byte[] payload, int offset, int length, byte[] seal,
                   int sealOffset);
}
