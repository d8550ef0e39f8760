package io.ricochet.api.protocol;

/**
 * Constants of the local TCP API (docs/api.md). A frame is {@code [u32 length][u8 type][u32 requestId][body]},
 * big-endian, where {@code length} counts the bytes after the length field.
 */
public final class ApiProtocol {
    /**
     * The protocol version this code speaks, sent in HELLO and HELLO_REPLY. Version 2 added DROPPED, which the
     * daemon pushes only on connections that said HELLO with version 2 or later. Version 3 added messages of any
     * size up to the daemon's {@code max-message} (HELLO_REPLY's max payload is then that size, and SEND, TRY_SEND
     * and DELIVER frames grow with it) and the ORDER request.
     */
    public static final int VERSION = 3;
    /** The first version whose messages may be larger than a datagram, and which has ORDER. */
    public static final int LARGE_MESSAGE_VERSION = 3;
    /** The oldest version the daemon still speaks: version 1, the same frames but DROPPED. */
    public static final int OLDEST_VERSION = 1;
    /** Bytes of the length prefix. */
    public static final int LENGTH_FIELD_LENGTH = 4;
    /** Bytes of type and request id, the part every frame has after the length prefix. */
    public static final int HEADER_LENGTH = 5;
    /** Default bound on the length field of frames a client sends (the daemon's limit). */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 65_536;
    /**
     * Bound on the length field of frames a client accepts from the daemon (a STATS_REPLY can be large): the whole
     * bound of a version 1 or 2 client; a version 3 client accepts {@link #inboundFrameLimit} of the HELLO_REPLY's
     * maximum.
     */
    public static final int MAX_INBOUND_FRAME_LENGTH = 16 * 1024 * 1024;
    /**
     * The largest message the API carries, whatever the daemon's {@code max-message} says: 1 GiB, so that every frame
     * length, header included, is a positive {@code int} with room to spare.
     */
    public static final int MAX_MESSAGE = 1 << 30;
    /** Longest client name in HELLO, in UTF-8 bytes. */
    public static final int MAX_CLIENT_NAME_LENGTH = 255;
    /** Fixed bytes of a DELIVER frame before its payload, length prefix excluded: the largest payload overhead. */
    public static final int DELIVER_OVERHEAD = HEADER_LENGTH + ApiFrameType.DELIVER.minBodyLength();
    /** Fixed bytes of a SEND or TRY_SEND frame before its payload, length prefix excluded. */
    public static final int SEND_OVERHEAD = HEADER_LENGTH + ApiFrameType.SEND.minBodyLength();
    /** Default TCP port of the daemon's API. */
    public static final int DEFAULT_PORT = 7400;

    private ApiProtocol() {
    }

    /** The largest payload that fits a DELIVER frame under {@code maxFrameLength}. */
    public static int payloadLimit(int maxFrameLength) {
        return maxFrameLength - DELIVER_OVERHEAD;
    }

    /**
     * The bound on the length field of frames a client of {@code version} accepts, given the max payload of its
     * HELLO_REPLY: {@link #MAX_INBOUND_FRAME_LENGTH} for versions 1 and 2; for version 3 also room for a DELIVER of
     * a message of {@code maxMessage} bytes (at most {@link #MAX_MESSAGE}).
     */
    public static int inboundFrameLimit(int version, long maxMessage) {
        if (version < LARGE_MESSAGE_VERSION) {
            return MAX_INBOUND_FRAME_LENGTH;
        }
        long deliver = Math.min(Math.max(0, maxMessage), MAX_MESSAGE) + DELIVER_OVERHEAD;
        return (int) Math.max(MAX_INBOUND_FRAME_LENGTH, deliver);
    }
}
