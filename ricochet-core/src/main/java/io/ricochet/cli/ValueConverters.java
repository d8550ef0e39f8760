package io.ricochet.cli;

import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.support.ParsingConverter;
import io.ricochet.support.UsageErrorHandler;
import java.time.Duration;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converters for the values of the {@code ricochet} tool's flags. A refused value becomes a
 * {@link TypeConversionException} carrying the parser's message, which {@link UsageErrorHandler} prints after the
 * flag and the value.
 */
public final class ValueConverters {

    private ValueConverters() {
    }

    /** A loss model: {@code none}, {@code uniform:L}, {@code bursty:L:b} or {@code markov:L:m}. */
    public static final class Loss extends ParsingConverter<LossSpec> {
        public Loss() {
            super(LossSpec::parse);
        }
    }

    /** A loss scope: {@code data} or {@code all}. */
    public static final class Scope extends ParsingConverter<LossScope> {
        public Scope() {
            super(LossScope::parse);
        }
    }

    /** {@code ricochet}, {@code srm}, {@code fec}, {@code pbcast}, {@code ipmc} or {@code qsm}. */
    public static final class Protocol extends ParsingConverter<ProtocolChoice> {
        public Protocol() {
            super(ProtocolChoice::parse);
        }
    }

    /** A Bimodal Multicast variant: {@code basic}, {@code ipmc}, {@code grb} or {@code local}. */
    public static final class PbcastVariantName extends ParsingConverter<io.ricochet.pbcast.PbcastVariant> {
        public PbcastVariantName() {
            super(io.ricochet.pbcast.PbcastVariant::parse);
        }
    }

    /** Seconds between refreshes of a live view: a decimal from 0.1 to 3600. */
    public static final class Interval extends ParsingConverter<Duration> {
        static final double MIN_SECONDS = 0.1;
        static final double MAX_SECONDS = 3600;

        public Interval() {
            super(Interval::parse);
        }

        static Duration parse(String value) {
            double seconds;
            try {
                seconds = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                seconds = Double.NaN;
            }
            if (!(seconds >= MIN_SECONDS && seconds <= MAX_SECONDS)) {
                throw new IllegalArgumentException("must be a number of seconds from 0.1 to 3600, e.g. 2 or 0.5");
            }
            return Duration.ofMillis(Math.round(seconds * 1000));
        }
    }
}
