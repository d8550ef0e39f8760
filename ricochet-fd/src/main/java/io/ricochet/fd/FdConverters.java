package io.ricochet.fd;

import java.net.InetSocketAddress;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converters for the address and target flags of {@link FdMain}, over the parsers of {@link Endpoints}. A
 * refused value becomes a {@link TypeConversionException} with the parser's message, which the usage error handler
 * prints after the flag and the value.
 */
final class FdConverters {

    private FdConverters() {
    }

    /** Adapts a parse function that throws {@link IllegalArgumentException} on bad input. */
    private abstract static class Parsing<T> implements ITypeConverter<T> {
        private final Function<String, T> parse;

        Parsing(Function<String, T> parse) {
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

    /** {@code host:port}, port 1..65535. */
    static final class HostPort extends Parsing<InetSocketAddress> {
        HostPort() {
            super(Endpoints::hostPort);
        }
    }

    /** {@code host:port} to bind, port 0..65535. */
    static final class Bind extends Parsing<InetSocketAddress> {
        Bind() {
            super(Endpoints::bindAddress);
        }
    }

    /** {@code nodeId@host:port}. */
    static final class Daemon extends Parsing<Target> {
        Daemon() {
            super(Endpoints::daemon);
        }
    }

    /** {@code id@host:port}. */
    static final class Detector extends Parsing<Target> {
        Detector() {
            super(Endpoints::detector);
        }
    }

    /** A detector name. */
    static final class Name extends Parsing<String> {
        Name() {
            super(Endpoints::detectorName);
        }
    }
}
