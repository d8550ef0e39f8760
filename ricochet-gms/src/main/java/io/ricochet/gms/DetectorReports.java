package io.ricochet.gms;

import io.ricochet.control.DetectorFailed;
import io.ricochet.control.DetectorRecovered;
import io.ricochet.control.NodeFailed;
import io.ricochet.control.NodeRecovered;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GMS in its role towards failure detectors: NODE_FAILED removes the node from all its groups, pushing
 * MEMBER_EVENT(FAIL) to the remaining members; NODE_RECOVERED puts it back (MEMBER_EVENT(JOIN) to every member,
 * GROUP_VIEW to the node). Detector verdicts are logged and counted.
 */
final class DetectorReports {
    private static final Logger LOG = LoggerFactory.getLogger(DetectorReports.class);

    private final MembershipState state;
    private final SessionTable sessions;
    private final DaemonRequests daemons;
    private final GmsCounters counters;

    DetectorReports(MembershipState state, SessionTable sessions, DaemonRequests daemons, GmsCounters counters) {
        this.state = state;
        this.sessions = sessions;
        this.daemons = daemons;
        this.counters = counters;
    }

    void onNodeFailed(NodeFailed verdict) {
        counters.increment(GmsCounter.FAILURES);
        var updates = state.fail(verdict.nodeId());
        updates.forEach(sessions::push);
        LOG.info("node {} failed: removed from {} group(s)", verdict.nodeId(), updates.size());
    }

    void onNodeRecovered(NodeRecovered verdict) {
        counters.increment(GmsCounter.RECOVERIES);
        var updates = state.recover(verdict.nodeId());
        daemons.announceRecovery(verdict.nodeId(), updates);
        LOG.info("node {} recovered: back in {} group(s)", verdict.nodeId(), updates.size());
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
