package io.ricochet.setting;

import java.util.Objects;

/**
 * The one declaration of a setting: its name (the daemon's config key and flag without dashes, the simulator's flag
 * too where it has one), its type, its default, a one-line description, and who must agree on its value. The
 * daemon's config file, flags and {@code --help}, the simulator's options, the validated configs' defaults and the
 * settings table of docs/operations.md all read it; a test keeps that table generated from the declarations.
 *
 * @param name        the key, e.g. {@code nak-timeout-ms}
 * @param type        how the value is written
 * @param defaultText the default as it is written in a config file; {@code null} when the setting is required, empty
 *                    when unset means none
 * @param doc         one line for {@code --help} and the docs, starting lower case, without a final full stop
 * @param agreement   who must set the same value for the cluster to work
 * @param details     what the operations guide says beyond {@code doc} (empty for nothing more)
 * @param min         the smallest value a number may have ({@link Long#MIN_VALUE}: no bound declared)
 * @param max         the largest value a number may have ({@link Long#MAX_VALUE}: no bound declared); the configs'
 *                    checks read both, and may refuse more (a bound that depends on another setting)
 */
public record Setting(String name, Type type, String defaultText, String doc, Agreement agreement, String details,
                      long min, long max) {

    private static final long NS_PER_MS = 1_000_000L;

    /** How a value is written. */
    public enum Type {
        /** Free text, parsed by the setting's consumer (an address, a path, a list). */
        TEXT,
        /** A whole number. */
        INTEGER,
        /** A number, decimals allowed. */
        DECIMAL,
        /** Milliseconds, decimals allowed where the consumer says so. */
        MILLIS,
        /** {@code on} or {@code off}. */
        ON_OFF
    }

    /** Who must set the same value. */
    public enum Agreement {
        /** This node alone: each node may differ. */
        NODE("this node"),
        /** Every member of a group: members that differ do not understand each other's traffic. */
        GROUP("every member"),
        /** Every node of the cluster. */
        CLUSTER("every node");

        private final String words;

        Agreement(String words) {
            this.words = words;
        }

        /** How the docs say it. */
        public String words() {
            return words;
        }
    }

    public Setting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(doc, "doc");
        Objects.requireNonNull(agreement, "agreement");
        Objects.requireNonNull(details, "details");
        if (type == Type.ON_OFF && defaultText != null && !defaultText.equals("on") && !defaultText.equals("off")) {
            throw new IllegalArgumentException(name + ": an on|off default must be on or off, not " + defaultText);
        }
        if (min > max) {
            throw new IllegalArgumentException(name + ": its range " + min + ".." + max + " is empty");
        }
    }

    private static Setting of(String name, Type type, String defaultText, String doc) {
        return new Setting(name, type, defaultText, doc, Agreement.NODE, "", Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** A text setting with {@code defaultText} ({@code ""} = none). */
    public static Setting text(String name, String defaultText, String doc) {
        return of(name, Type.TEXT, defaultText, doc);
    }

    /** A setting that has no default: it must be given. */
    public static Setting required(String name, Type type, String doc) {
        return of(name, type, null, doc);
    }

    /** A whole number. */
    public static Setting integer(String name, long defaultValue, String doc) {
        return of(name, Type.INTEGER, Long.toString(defaultValue), doc);
    }

    /** A number with decimals allowed, its default written as {@code defaultText} (e.g. {@code 5}). */
    public static Setting decimal(String name, String defaultText, String doc) {
        Double.parseDouble(defaultText);
        return of(name, Type.DECIMAL, defaultText, doc);
    }

    /** A time in milliseconds. */
    public static Setting millis(String name, long defaultMs, String doc) {
        return of(name, Type.MILLIS, Long.toString(defaultMs), doc);
    }

    /** An on|off switch. */
    public static Setting onOff(String name, boolean defaultOn, String doc) {
        return of(name, Type.ON_OFF, defaultOn ? "on" : "off", doc);
    }

    /** This declaration, with {@code who} having to agree on its value. */
    public Setting agreedBy(Agreement who) {
        return new Setting(name, type, defaultText, doc, who, details, min, max);
    }

    /** This declaration, with what the operations guide says beyond the one line. */
    public Setting details(String more) {
        return new Setting(name, type, defaultText, doc, agreement, more, min, max);
    }

    /** This declaration, its values in {@code from..to}. */
    public Setting range(long from, long to) {
        return new Setting(name, type, defaultText, doc, agreement, details, from, to);
    }

    /** This declaration, its values {@code from} or more. */
    public Setting atLeast(long from) {
        return range(from, Long.MAX_VALUE);
    }

    /** Whether {@code value} is in the declared range. */
    public boolean allows(double value) {
        return value >= min && value <= max;
    }

    /**
     * The declared range as the checks' messages say it after "must be": {@code 1..64}, {@code at least 16},
     * {@code 0 or more}; empty when none is declared.
     */
    public String rangeText() {
        if (max != Long.MAX_VALUE) {
            return (min == Long.MIN_VALUE ? "at most " : min + "..") + max;
        }
        if (min == Long.MIN_VALUE) {
            return "";
        }
        return min == 0 ? "0 or more" : "at least " + min;
    }

    /** Whether the setting must be given. */
    public boolean required() {
        return defaultText == null;
    }

    /** The default of an integer setting. */
    public int intDefault() {
        return Integer.parseInt(requireDefault(Type.INTEGER));
    }

    /** The default of a decimal setting. */
    public double decimalDefault() {
        return Double.parseDouble(requireDefault(Type.DECIMAL));
    }

    /** The default of a time setting in milliseconds. */
    public long millisDefault() {
        return Long.parseLong(requireDefault(Type.MILLIS));
    }

    /** The default of a time setting in nanoseconds. */
    public long nanosDefault() {
        return millisDefault() * NS_PER_MS;
    }

    /** The default of an on|off setting. */
    public boolean onDefault() {
        return requireDefault(Type.ON_OFF).equals("on");
    }

    private String requireDefault(Type expected) {
        if (type != expected || defaultText == null) {
            throw new IllegalStateException(name + " is " + type + (defaultText == null ? ", required" : "")
                    + ", not " + expected + " with a default");
        }
        return defaultText;
    }
}
