package io.ricochet.fd;

import io.netty.channel.EventLoopGroup;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.control.verdict.FailureReporter;
import io.ricochet.control.verdict.GmsFailureReporter;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that builds (and closes) the {@link FailureReporter} sending verdicts to the GMS partitions, so
 * that plugging in the GMS client changes this class only.
 */
final class GmsReporters {
    private static final Logger LOG = LoggerFactory.getLogger(GmsReporters.class);

    private GmsReporters() {
    }

    /**
     * The reporter for {@code partitions} (at least one; per partition, in partition order, its replicas), running
     * its I/O on {@code group} over links protected by {@code tls}.
     */
    static FailureReporter gmsReporter(List<List<InetSocketAddress>> partitions, TlsSettings tls,
                                       EventLoopGroup group) {
        return new GmsFailureReporter(partitions, group, tls);
    }

    /** Releases what {@link #gmsReporter} built; never throws. */
    static void close(FailureReporter reporter) {
        if (reporter instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("closing the GMS reporter failed", e);
            }
        }
    }
}
