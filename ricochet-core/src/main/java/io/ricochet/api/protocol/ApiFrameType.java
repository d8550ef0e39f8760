package io.ricochet.api.protocol;

/**
 * The only list of local-API frame type ids (docs/api.md). The top two bits of an id say who sends the frame:
 * {@code 00} a request from the client, {@code 01} the daemon's reply to one, {@code 10} a frame the daemon pushes.
 * Each type also fixes the length of its body: exactly {@link #minBodyLength()} bytes, or at least that many when
 * the frame ends with a variable-length field.
 */
public enum ApiFrameType {
    HELLO(0x01, 2, true),
    JOIN(0x02, 4, false),
    LEAVE(0x03, 4, false),
    SEND(0x04, 4, true),
    STATS(0x05, 0, false),
    TRY_SEND(0x06, 4, true),
    OPTIONS(0x07, 4, false),
    ORDER(0x08, 5, false),
    HELLO_REPLY(0x41, 10, true),
    OK(0x42, 8, false),
    STATS_REPLY(0x43, 0, true),
    ERROR(0x44, 2, true),
    DELIVER(0x81, 16, true),
    LOST(0x82, 16, false),
    OVERFLOW(0x83, 8, false),
    DROPPED(0x84, 24, false);

    private static final int CLASS_MASK = 0xC0;
    private static final int REQUEST_CLASS = 0x00;
    private static final int PUSH_CLASS = 0x80;
    private static final ApiFrameType[] BY_WIRE = new ApiFrameType[256];

    static {
        for (ApiFrameType type : values()) {
            BY_WIRE[type.wire] = type;
        }
    }

    private final int wire;
    private final int minBodyLength;
    private final boolean variableLength;

    ApiFrameType(int wire, int minBodyLength, boolean variableLength) {
        this.wire = wire;
        this.minBodyLength = minBodyLength;
        this.variableLength = variableLength;
    }

    /** The type byte on the wire. */
    public int wire() {
        return wire;
    }

    /** Length of the fixed fields of the body, in bytes. */
    public int minBodyLength() {
        return minBodyLength;
    }

    /** Whether a variable-length field (string, payload, JSON) fills the rest of the body. */
    public boolean variableLength() {
        return variableLength;
    }

    /** A request: sent by the client, answered by exactly one reply with the same request id. */
    public boolean isRequest() {
        return (wire & CLASS_MASK) == REQUEST_CLASS;
    }

    /** Pushed by the daemon without a request; its request id is always 0. */
    public boolean isPush() {
        return (wire & CLASS_MASK) == PUSH_CLASS;
    }

    /** The type with this wire id, or null for an unknown one. */
    public static ApiFrameType of(int wire) {
        return wire >= 0 && wire < BY_WIRE.length ? BY_WIRE[wire] : null;
    }
}
