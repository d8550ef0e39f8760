package io.ricochet.support;

/**
 * The value of an on/off flag (not a {@code boolean}: picocli would treat that as a flag without a value), shared by
 * the commands of every module; {@link Switch} is its converter.
 */
public enum OnOff {
    ON, OFF;

    /** A switch: exactly {@code on} or {@code off}. */
    public static final class Switch extends ParsingConverter<OnOff> {
        public Switch() {
            super(OnOff::parse);
        }
    }

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
}
