package io.ricochet.auth;

/**
 * What a socket's edge does to every datagram: {@link #seal} before it is sent, {@link #open} before anything else
 * reads a received one. One instance per thread ({@link Authentication#newGuard}).
 */
public interface FrameGuard {
    /**
     * The destination of a frame sent to no one process (multicast), and the own id of a guard made without one
     * (tests): a frame of a type bound to its receiver ({@link io.ricochet.wire.FrameType#isBoundToReceiver}) sealed
     * with it opens only at such a guard.
     */
    int NO_DESTINATION = Integer.MIN_VALUE;

    /**
     * Makes the datagram for the frame in {@code buf[offset, offset + frameLength)}, in place (room for
     * {@link DatagramAuth#TRAILER_LENGTH} more bytes after it); returns the datagram's length. If the frame's type is
     * bound to its receiver, the datagram opens only at the process whose id is {@code destination}
     * (docs/design/security.md, "Bound to the receiver"); other types ignore it.
     */
    int seal(byte[] buf, int offset, int frameLength, int destination);

    /** {@link #seal(byte[], int, int, int)} for a frame to no one process: a multicast frame. */
    default int seal(byte[] buf, int offset, int frameLength) {
        return seal(buf, offset, frameLength, NO_DESTINATION);
    }

    /**
     * The frame's length if the datagram is authentic (and, for a type bound to its receiver, was sealed for this
     * guard's process), else a negative {@link DatagramAuth} reason code.
     */
    int open(byte[] buf, int offset, int datagramLength);
}
