package io.ricochet.api;

/** A request the daemon refuses, with the error code the local API sends back (see docs/api.md). */
public final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Error codes of the local API's ERROR frame. */
    public enum Code {
        MALFORMED_FRAME(1), UNSUPPORTED_VERSION(2), NOT_A_MEMBER(3), PAYLOAD_TOO_LARGE(4), BAD_GROUP(5),
        UNAVAILABLE(6), INTERNAL(7),
        /** TRY_SEND only: the daemon cannot take the packet now (send queue full or rate limit); retry later. */
        BUSY(8),
        /** A limit of the connection, its user or the daemon is reached (connections, groups). */
        LIMIT_EXCEEDED(9),
        /** The group's allow list does not admit the connection's user (docs/api.md, "Access control"). */
        NOT_PERMITTED(10);

        private final int wire;

        Code(int wire) {
            this.wire = wire;
        }

        public int wire() {
            return wire;
        }

        /** The code with this wire value, or INTERNAL for an unknown one. */
        public static Code of(int wire) {
            for (Code c : values()) {
                if (c.wire == wire) {
                    return c;
                }
            }
            return INTERNAL;
        }
    }

    private final Code code;

    public ApiException(Code code, String message) {
        super(message);
        this.code = code;
    }

    public Code code() {
        return code;
    }
}
