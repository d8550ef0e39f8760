package io.ricochet.wire;

/**
 * A failure detector's ping ({@link FrameType#HEARTBEAT}) and its answer ({@link FrameType#HEARTBEAT_ACK}); see
 * {@code docs/design/failure-detection.md}.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Header (12 bytes, see HeaderFlyweight)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Sequence Number (64 bits)                 |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Pinger's Send Time (64 bits, ns)              |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * The frame length is exactly {@link #LENGTH}. In a HEARTBEAT the source is the pinging detector, the sequence
 * numbers its rounds (never negative) and the send time is a reading of the pinger's own monotonic clock: opaque to
 * everyone else, any value. A HEARTBEAT_ACK carries the answering node's id as its source and the sequence and send
 * time of the HEARTBEAT it answers, unchanged; {@link #ackInto} builds it.
 */
public final class HeartbeatFlyweight extends HeaderFlyweight {
    public static final int SEQUENCE_OFFSET = HEADER_LENGTH;
    public static final int SEND_TIME_OFFSET = SEQUENCE_OFFSET + 8;
    public static final int LENGTH = SEND_TIME_OFFSET + 8;

    /**
     * The 32-bit id a failure detector named {@code name} (its {@code --id}) puts in the source field of the frames it
     * sends: the {@link String#hashCode()} of the name, which the Java language fixes, so a detector and every
     * process that knows it by name (its watchers, the daemons that answer it) compute the same id without any
     * coordination.
     */
    public static int detectorWireId(String name) {
        return name.hashCode();
    }

    @Override
    public HeartbeatFlyweight wrap(byte[] buffer, int offset) {
        super.wrap(buffer, offset);
        return this;
    }

    public long sequence() {
        return Bytes.getLong(buffer, offset + SEQUENCE_OFFSET);
    }

    public long sendTimeNs() {
        return Bytes.getLong(buffer, offset + SEND_TIME_OFFSET);
    }

    /** Writes a complete HEARTBEAT or HEARTBEAT_ACK frame; returns its length. */
    public int write(int type, int source, long sequence, long sendTimeNs) {
        writeHeader(type, source);
        frameLength(LENGTH);
        Bytes.putLong(buffer, offset + SEQUENCE_OFFSET, sequence);
        Bytes.putLong(buffer, offset + SEND_TIME_OFFSET, sendTimeNs);
        return LENGTH;
    }

    /**
     * Answers a received HEARTBEAT: writes its HEARTBEAT_ACK, with {@code ackSource} (the answering node's id) as
     * the source and the sequence and send time copied unchanged, at {@code ack[ackOffset]}. The received bytes
     * are checked with {@link FrameValidator} first, so raw datagram bytes may be passed. Allocates nothing; the
     * answer may be written over the heartbeat itself.
     *
     * @param heartbeat the received bytes; the frame occupies exactly {@code [offset, offset + length)}
     * @param ack where the answer is written; needs {@link #LENGTH} bytes from {@code ackOffset}
     * @return the ack's length, {@link #LENGTH}; or 0, writing nothing, if the received bytes are not a valid
     *         HEARTBEAT (malformed, or another frame type)
     * @throws IllegalArgumentException if {@code ack} has no room for the answer (a caller bug, not peer input)
     */
    public static int ackInto(byte[] heartbeat, int offset, int length, int ackSource, byte[] ack, int ackOffset) {
        if (ack == null || ackOffset < 0 || ackOffset > ack.length - LENGTH) {
            throw new IllegalArgumentException("no room for a " + LENGTH + "-byte ack at offset " + ackOffset);
        }
        if (!FrameValidator.isValid(heartbeat, offset, length)
                || Bytes.getUnsignedByte(heartbeat, offset + TYPE_OFFSET) != FrameType.HEARTBEAT) {
            return 0;
        }
        // Same magic, version, length, sequence and send time: copy the frame, then restamp type, flags and source.
        System.arraycopy(heartbeat, offset, ack, ackOffset, LENGTH);
        ack[ackOffset + TYPE_OFFSET] = (byte) FrameType.HEARTBEAT_ACK;
        Bytes.putShort(ack, ackOffset + FLAGS_OFFSET, 0);
        Bytes.putInt(ack, ackOffset + SOURCE_OFFSET, ackSource);
        return LENGTH;
    }
}
