package io.ricochet.cli;

import io.ricochet.protocols.ProtocolChoice;

import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converters for the values the library parses itself. A refused value becomes a
 * {@link TypeConversionException} carrying the parser's message, which {@link UsageErrorHandler} prints after the
 * flag and the value.
 */
public final class ValueConverters {

    private ValueConverters() {
    }

    /**
     * Adapts a parse function that throws {@link IllegalArgumentException} on bad input; shared by every command
     * of every module (the GMS and FD mains too).
     */
    public abstract static class Parsing<T> implements ITypeConverter<T> {
        private final Function<String, T> parse;

        protected Parsing(Function<String, T> parse) {
            this.parse = parse;
        }

        @Override
        public T convert(String value) {
            try {
                return parse.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A loss model: {@code none}, {@code uniform:L}, {@code bursty:L:b} or {@code markov:L:m}. */
    public static final class Loss extends Parsing<LossSpec> {
        public Loss() {
            super(LossSpec::parse);
        }
    }

    /** A loss scope: {@code data} or {@code all}. */
    public static final class Scope extends Parsing<LossScope> {
        public Scope() {
            super(LossScope::parse);
        }
    }

    /** A switch: exactly {@code on} or {@code off}. */
    public static final class Switch extends Parsing<OnOff> {
        public Switch() {
            super(OnOff::parse);
        }
    }

    /** The value of an on/off flag (not a {@code boolean}: picocli would treat that as a flag without a value). */
    /** {@code ricochet}, {@code srm} or {@code fec}. */
    public static final class Protocol extends Parsing<ProtocolChoice> {
        public Protocol() {
            super(ProtocolChoice::parse);
        }
    }

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
    }
}
