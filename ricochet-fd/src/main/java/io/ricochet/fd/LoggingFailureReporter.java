package io.ricochet.fd;

import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.verdict.FailureReporter;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FailureReporter} that only logs each verdict, at INFO, naming the GMS partitions it would have gone to.
 * Used when no GMS partition is configured, and for now in place of the GMS client (see {@link GmsReporters}).
 * Stateless and thread-safe; never blocks beyond the log call.
 */
public final class LoggingFailureReporter implements FailureReporter {
    private static final Logger LOG = LoggerFactory.getLogger(LoggingFailureReporter.class);

    private final String destination;

    /** @param partitions the GMS partitions (each its replicas) the verdicts are meant for, named in every log line */
    public LoggingFailureReporter(List<List<InetSocketAddress>> partitions) {
        this.destination = partitions.isEmpty() ? "no GMS partition configured"
                : "for GMS partitions " + GmsAddresses.format(partitions);
    }

    @Override
    public void failed(int nodeId) {
        log("failed(" + nodeId + ")");
    }

    @Override
    public void recovered(int nodeId) {
        log("recovered(" + nodeId + ")");
    }

    @Override
    public void detectorFailed(String detectorId) {
        log("detectorFailed(" + detectorId + ")");
    }

    @Override
    public void detectorRecovered(String detectorId) {
        log("detectorRecovered(" + detectorId + ")");
    }

    private void log(String verdict) {
        LOG.info("verdict {} ({}): logged only, not sent", verdict, destination);
    }
}
