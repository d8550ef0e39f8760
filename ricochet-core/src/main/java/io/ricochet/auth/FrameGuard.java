package io.ricochet.auth;

/**
 * What a socket's edge does to every datagram: {@link #seal} before it is sent, {@link #open} before anything else
 * reads a received one. One instance per thread ({@link Authentication#newGuard}).
 */
public interface FrameGuard {
    /**
     * Makes the datagram for the frame in {@code buf[offset, offset + frameLength)}, in place (room for
     * {@link DatagramAuth#TRAILER_LENGTH} more bytes after it); returns the datagram's length.
     */
    int seal(byte[] buf, int offset, int frameLength);

    /** The frame's length if the datagram is authentic, else a negative {@link DatagramAuth} reason code. */
    int open(byte[] buf, int offset, int datagramLength);
}
