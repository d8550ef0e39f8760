package io.ricochet.support;

/**
 * The value of an on/off option, written {@code on} or {@code off} by every command (the daemon, the GMS, the
 * detector, the simulator); not a {@code boolean}, which picocli would treat as a flag without a value.
 */
public enum OnOff {
    ON, OFF;

    static OnOff parse(String value) {
        return switch (value) {
            case "on" -> ON;
            case "off" -> OFF;
            default -> throw new IllegalArgumentException("must be on or off");
        };
    }

    public boolean isOn() {
        return this == ON;
    }

    /** The picocli converter: exactly {@code on} or {@code off}. */
    public static final class Converter extends ParsingConverter<OnOff> {
        public Converter() {
            super(OnOff::parse);
        }
    }
}
