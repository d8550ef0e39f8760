package io.ricochet.gms;

import io.netty.channel.Channel;
import io.ricochet.control.DetectorFailed;
import io.ricochet.control.DetectorRecovered;
import io.ricochet.control.NodeFailed;
import io.ricochet.control.NodeRecovered;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GMS in its role towards failure detectors, at the leader: NODE_FAILED and NODE_RECOVERED go into the Raft
 * log (once committed, the node is removed from or put back into its groups: {@link LogApplier}); detector
 * verdicts change no membership and are only logged and counted here.
 */
final class DetectorReports {
    private static final Logger LOG = LoggerFactory.getLogger(DetectorReports.class);

    private final GmsCounters counters;
    private final DaemonRequests.Submitter log;

    DetectorReports(GmsCounters counters, DaemonRequests.Submitter log) {
        this.counters = counters;
        this.log = log;
    }

    void onNodeFailed(Channel channel, NodeFailed verdict) {
        counters.increment(GmsCounter.FAILURES);
        log.submit(channel, verdict);
    }

    void onNodeRecovered(Channel channel, NodeRecovered verdict) {
        counters.increment(GmsCounter.RECOVERIES);
        log.submit(channel, verdict);
    }

    void onDetectorFailed(DetectorFailed verdict) {
        counters.increment(GmsCounter.DETECTOR_FAILURES);
        LOG.warn("failure detector '{}' failed", verdict.detectorId());
    }

    void onDetectorRecovered(DetectorRecovered verdict) {
        counters.increment(GmsCounter.DETECTOR_RECOVERIES);
        LOG.info("failure detector '{}' recovered", verdict.detectorId());
    }
}
