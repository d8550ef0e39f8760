package io.ricochet.control.codec;

import io.ricochet.control.message.ErrorCode;

/**
 * A control frame that cannot be decoded. {@link ControlCodec#decode} throws nothing else on any input, so peer
 * input never escapes as an unchecked exception; the receiver answers with {@link ErrorCode#MALFORMED_FRAME} and
 * closes the connection.
 */
public final class ControlDecodeException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What was wrong with the frame. */
    public enum Reason {
        /** No type byte. */
        EMPTY,
        /** A type code no message has. */
        UNKNOWN_TYPE,
        /** The body ends before a field it must hold. */
        TRUNCATED,
        /** Bytes left over after the last field. */
        TRAILING_BYTES,
        /** A field holds a value the protocol forbids (bad kind, bad UTF-8, unsorted members, ...). */
        BAD_VALUE,
    }

    private final Reason reason;

    public ControlDecodeException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
