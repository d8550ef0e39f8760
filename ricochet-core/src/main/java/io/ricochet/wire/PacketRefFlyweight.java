package io.ricochet.wire;

/**
 * A frame that names one data packet: a {@link FrameType#NAK} (sent to the packet's original sender), a
 * {@link FrameType#GONE} (the sender's answer when the packet has left its retransmit buffer) or a
 * {@link FrameType#SESSION} (a sender's highest seqno in a group, multicast once the stream goes idle) and
 * {@link FrameType#TAIL} (a member's highest seqno seen of a failed sender).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Original Sender                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Group                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Sequence Number (64 bits)                 |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   TAIL: the failed sender's incarnation; JOIN_*: the nonce    |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * A JOIN_PROBE names the origin it asks and, in its Sequence Number, what it asks (0: the origin's next seqno, from a
 * node that joined; 1: where the origin's stream continued at its own join, from a member that saw it join; any other
 * value is read as 0), and a JOIN_POINT the origin's first seqno the prober takes; both carry the probe's nonce and are
 * {@link #JOIN_LENGTH} bytes (an answer no larger than its question). A GONE or SESSION frame is exactly
 * {@link #LENGTH} bytes, a TAIL {@link #TAIL_LENGTH}: its incarnation says which run of the failed sender it is about,
 * so that a TAIL that reaches a member after the sender came back (a new incarnation, whose stream starts again at 0)
 * is not taken for the new stream's end. A NAK is at least {@link #NAK_LENGTH}: the same fields and zero padding, so
 * that its answer (a RETRANSMIT of at most {@link HeaderFlyweight#STANDARD_FRAME_LENGTH} bytes, or of the sender's
 * configured frame limit: {@link #nakLength}) is never more than three times the bytes of the NAK that asked for it
 * (the anti-amplification rule of QUIC, RFC 9000 section 8.1, applied to NAKs: docs/design/security.md,
 * "Amplification"). The padding is not read.
 */
public final class PacketRefFlyweight extends PacketIdFlyweight {
    /** Length of a GONE or SESSION frame. */
    public static final int LENGTH = ID_END;
    /** Offset of a TAIL's incarnation. */
    public static final int INCARNATION_OFFSET = ID_END;
    /** Length of a TAIL frame: the id and the failed sender's incarnation. */
    public static final int TAIL_LENGTH = INCARNATION_OFFSET + 8;
    /** Length of a JOIN_PROBE or JOIN_POINT frame: the id and the probe's nonce (where a TAIL has its incarnation). */
    public static final int JOIN_LENGTH = TAIL_LENGTH;
    /**
     * Least length of a NAK frame: a third of a standard frame, so no answer of a standard data path is more than 3
     * times its NAK.
     */
    public static final int NAK_LENGTH = 496;
    /** An answer is at most this many times the bytes of the NAK that asked for it. */
    public static final int AMPLIFICATION = 3;

    /** Length of a NAK whose answers are at most {@code largestAnswer} bytes: at least a third of that. */
    public static int nakLength(int largestAnswer) {
        return Math.max(NAK_LENGTH, (largestAnswer + AMPLIFICATION - 1) / AMPLIFICATION);
    }

    /** Whether a NAK of {@code nakLength} bytes may be answered with {@code answerLength} bytes. */
    public static boolean mayAnswer(int nakLength, int answerLength) {
        return answerLength <= AMPLIFICATION * nakLength;
    }

    @Override
    public PacketRefFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * The least length of a frame of {@code type}: {@link #NAK_LENGTH} for a NAK, {@link #TAIL_LENGTH} for a TAIL,
     * {@link #LENGTH} for the others.
     */
    public static int lengthOf(int type) {
        switch (type) {
            case FrameType.NAK:
                return NAK_LENGTH;
            case FrameType.TAIL:
                return TAIL_LENGTH;
            case FrameType.JOIN_PROBE:
            case FrameType.JOIN_POINT:
                return JOIN_LENGTH;
            default:
                return LENGTH;
        }
    }

    /** Whether {@code length} is a valid length of a frame of {@code type} (a NAK may be padded further). */
    public static boolean validLength(int type, int length) {
        return type == FrameType.NAK ? length >= NAK_LENGTH : length == lengthOf(type);
    }

    /** A TAIL's failed sender's incarnation. */
    public long incarnation() {
        return Bytes.getLong(buffer, offset + INCARNATION_OFFSET);
    }

    /** A JOIN_PROBE's or JOIN_POINT's nonce (the bytes of a TAIL's incarnation). */
    public long nonce() {
        return Bytes.getLong(buffer, offset + INCARNATION_OFFSET);
    }

    /**
     * Writes a complete JOIN_PROBE ({@code seqno} its question) or JOIN_POINT frame about {@code origin}'s stream in
     * {@code group}; returns its length.
     */
    public int writeJoin(int type, int source, int origin, int group, long seqno, long nonce) {
        if (type != FrameType.JOIN_PROBE && type != FrameType.JOIN_POINT) {
            throw new IllegalArgumentException("not a join frame type: " + type);
        }
        int length = write(type, source, origin, group, seqno);
        Bytes.putLong(buffer, offset + INCARNATION_OFFSET, nonce);
        return length;
    }

    /** Writes a complete TAIL frame: {@code origin}'s run {@code incarnation} reached {@code seqno} here. */
    public int writeTail(int source, int origin, int group, long seqno, long incarnation) {
        int length = write(FrameType.TAIL, source, origin, group, seqno);
        Bytes.putLong(buffer, offset + INCARNATION_OFFSET, incarnation);
        return length;
    }

    /**
     * Writes a complete NAK (with its least padding), GONE or SESSION frame (or a TAIL with incarnation 0: use
     * {@link #writeTail}); returns its length.
     */
    public int write(int type, int source, int origin, int group, long seqno) {
        return write(type, source, origin, group, seqno, lengthOf(type));
    }

    /**
     * Writes a complete frame of {@code length} bytes ({@link #validLength}: a NAK padded with zeros to it); returns
     * its length.
     */
    public int write(int type, int source, int origin, int group, long seqno, int length) {
        if (!validLength(type, length)) {
            throw new IllegalArgumentException("length " + length + " for frame type " + type);
        }
        writeId(type, source, origin, group, seqno);
        java.util.Arrays.fill(buffer, offset + LENGTH, offset + length, (byte) 0);
        frameLength(length);
        return length;
    }
}
