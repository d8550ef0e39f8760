package io.ricochet.lec;

import io.ricochet.engine.PacketId;

/**
 * What the repair receiver needs from the engine: the state of each packet a repair names, its cached payload,
 * and a way to hand over a recovered packet.
 */
public interface PacketSource {
    /** The packet is missing (its loss is now registered, if it was not already). */
    int MISSING = -1;
    /** The packet was delivered or given up, but its payload is no longer cached. */
    int UNAVAILABLE = -2;
    /** The repair names a packet this node must not act on (not a member, outside the window). */
    int REJECT = -3;

    /**
     * A slot ({@code >= 0}) of the cached payload, or one of {@link #MISSING}, {@link #UNAVAILABLE},
     * {@link #REJECT}.
     */
    int lookup(int origin, int group, long seqno, long nowNs);

    byte[] payload(int slot);

    /** Where the payload of {@code slot} starts in its {@link #payload} array. */
    int offset(int slot);

    int length(int slot);

    /**
     * A missing packet was rebuilt by XOR; the engine checks it against its origin's seal
     * ({@code seal[sealOffset..]}, as long as the engine's {@code OriginSeals} say) and delivers it (or counts a
     * duplicate, or a packet that does not match its seal).
     */
    void recovered(PacketId id, byte[] payload, int offset, int length, byte[] seal, int sealOffset, boolean combined,
                   long nowNs);
}
