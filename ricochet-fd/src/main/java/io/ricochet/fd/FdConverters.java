package io.ricochet.fd;

import io.ricochet.support.ParsingConverter;
import java.net.InetSocketAddress;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converters for the address and target flags of {@link FdMain}, over the parsers of {@link Endpoints}. A
 * refused value becomes a {@link TypeConversionException} with the parser's message, which the usage error handler
 * prints after the flag and the value.
 */
final class FdConverters {

    private FdConverters() {
    }

    /** {@code host:port} to bind, port 0..65535. */
    static final class Bind extends ParsingConverter<InetSocketAddress> {
        Bind() {
            super(Endpoints::bindAddress);
        }
    }

    /** {@code nodeId@host:port}. */
    static final class Daemon extends ParsingConverter<Target> {
        Daemon() {
            super(Endpoints::daemon);
        }
    }

    /** {@code id@host:port}. */
    static final class Detector extends ParsingConverter<Target> {
        Detector() {
            super(Endpoints::detector);
        }
    }

    /** A detector name. */
    static final class Name extends ParsingConverter<String> {
        Name() {
            super(Endpoints::detectorName);
        }
    }
}
