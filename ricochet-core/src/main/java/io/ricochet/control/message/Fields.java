package io.ricochet.control.message;

import com.google.common.base.Utf8;
import io.ricochet.control.codec.ControlCodec;

/** Range checks shared by the message records, so a record that exists always fits its wire fields. */
public final class Fields {
    private Fields() {
    }

    /** Returns {@code value} if it fits a u8, else throws {@link IllegalArgumentException} naming {@code what}. */
    public static int requireU8(int value, String what) {
        if (value < 0 || value > 0xFF) {
            throw new IllegalArgumentException(what + " must be in 0..255, got " + value);
        }
        return value;
    }

    /** Returns {@code value} if it fits a u16, else throws {@link IllegalArgumentException} naming {@code what}. */
    public static int requireU16(int value, String what) {
        if (value < 0 || value > 0xFFFF) {
            throw new IllegalArgumentException(what + " must be in 0..65535, got " + value);
        }
        return value;
    }

    /** Checks that {@code text} is well-formed UTF-16 of at most {@link ControlCodec#MAX_TEXT_BYTES} in UTF-8. */
    public static String requireText(String text, String what) {
        if (text == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        int bytes;
        try {
            bytes = Utf8.encodedLength(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not well-formed Unicode (unpaired surrogate)", e);
        }
        if (bytes > ControlCodec.MAX_TEXT_BYTES) {
            throw new IllegalArgumentException(what + " takes " + bytes + " bytes in UTF-8, more than "
                    + ControlCodec.MAX_TEXT_BYTES);
        }
        return text;
    }
}
