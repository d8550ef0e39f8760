package io.ricochet.control.message;

import io.ricochet.control.codec.ControlCodec;

/**
 * A refusal or a complaint about a malformed frame: {@code code} is one of {@link ErrorCode} (u16) and
 * {@code message} says what was wrong in words (at most {@link ControlCodec#MAX_TEXT_BYTES} bytes of UTF-8).
 */
public record ErrorReply(int code, String message) implements ControlMessage {
    public ErrorReply {
        Fields.requireU16(code, "code");
        Fields.requireText(message, "message");
    }

    /** An error whose message is cut to fit, for messages built from text this end does not control. */
    public static ErrorReply truncating(int code, String message) {
        String text = message == null ? "" : message;
        int max = ControlCodec.MAX_TEXT_BYTES / 4;   // a UTF-16 char takes at most 3 bytes; 4 keeps it simple
        if (text.length() > max) {
            int cut = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
            text = text.substring(0, cut);
        }
        return new ErrorReply(code, text);
    }

    @Override
    public int type() {
        return MessageType.ERROR;
    }

    @Override
    public String toString() {
        return "ErrorReply[" + ErrorCode.name(code) + ": " + message + "]";
    }
}
