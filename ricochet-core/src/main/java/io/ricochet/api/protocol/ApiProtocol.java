package io.ricochet.api.protocol;

/**
 * Constants of the local TCP API (docs/api.md). A frame is {@code [u32 length][u8 type][u32 requestId][body]},
 * big-endian, where {@code length} counts the bytes after the length field.
 */
public final class ApiProtocol {
    /**
     * The protocol version this code speaks, sent in HELLO and HELLO_REPLY. Version 2 added DROPPED, which the
     * daemon pushes only on connections that said HELLO with version 2 or later.
     */
    public static final int VERSION = 2;
    /** The oldest version the daemon still speaks: version 1, the same frames but DROPPED. */
    public static final int OLDEST_VERSION = 1;
    /** Bytes of the length prefix. */
    public static final int LENGTH_FIELD_LENGTH = 4;
    /** Bytes of type and request id, the part every frame has after the length prefix. */
    public static final int HEADER_LENGTH = 5;
    /** Default bound on the length field of frames a client sends (the daemon's limit). */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 65_536;
    /** Bound on the length field of frames a client accepts from the daemon (a STATS_REPLY can be large). */
    public static final int MAX_INBOUND_FRAME_LENGTH = 16 * 1024 * 1024;
    /** Longest client name in HELLO, in UTF-8 bytes. */
    public static final int MAX_CLIENT_NAME_LENGTH = 255;
    /** Fixed bytes of a DELIVER frame before its payload, length prefix excluded: the largest payload overhead. */
    public static final int DELIVER_OVERHEAD = HEADER_LENGTH + ApiFrameType.DELIVER.minBodyLength();
    /** Default TCP port of the daemon's API. */
    public static final int DEFAULT_PORT = 7400;

    private ApiProtocol() {
    }

    /** The largest payload that fits a DELIVER frame under {@code maxFrameLength}. */
    public static int payloadLimit(int maxFrameLength) {
        return maxFrameLength - DELIVER_OVERHEAD;
    }
}
