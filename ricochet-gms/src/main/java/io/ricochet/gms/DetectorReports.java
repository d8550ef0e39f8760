package io.ricochet.gms;

import io.netty.channel.Channel;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Watch;

/**
 * The GMS in its role towards failure detectors, at the leader: NODE_FAILED and NODE_RECOVERED go into the Raft
 * log (once committed, the node is removed from or put back into its groups: {@link LogApplier}); WATCH (to
 * partition 0 only), DETECTOR_FAILED and DETECTOR_RECOVERED too, for the rack assignments ({@link RackAssignments}):
 * which detector watches which daemons.
 */
final class DetectorReports {
    private final Partitioning partitioning;
    private final GmsCounters counters;
    private final DaemonRequests.Submitter log;

    DetectorReports(Partitioning partitioning, GmsCounters counters, DaemonRequests.Submitter log) {
        this.partitioning = partitioning;
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

    void onDetectorFailed(Channel channel, DetectorFailed verdict) {
        counters.increment(GmsCounter.DETECTOR_FAILURES);
        log.submit(channel, verdict);
    }

    void onDetectorRecovered(Channel channel, DetectorRecovered verdict) {
        counters.increment(GmsCounter.DETECTOR_RECOVERIES);
        log.submit(channel, verdict);
    }

    /** A detector's WATCH: only partition 0 keeps the rack assignments. */
    void onWatch(Channel channel, Watch watch) throws GmsRefusal {
        if (partitioning.index() != 0) {
            throw new GmsRefusal(ErrorCode.WRONG_PARTITION, "WATCH goes to partition 0, which keeps the rack "
                    + "assignments; this is partition " + partitioning.index());
        }
        counters.increment(GmsCounter.WATCHES);
        log.submit(channel, watch);
    }
}
