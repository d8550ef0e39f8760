package io.ricochet.fd;

import io.ricochet.control.verdict.FailureReporter;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the detector's transitions into verdicts: a daemon goes to {@link FailureReporter#failed} /
 * {@link FailureReporter#recovered} by node id, a detector to {@link FailureReporter#detectorFailed} /
 * {@link FailureReporter#detectorRecovered} by name. Each transition is also logged (failure at WARN, recovery at
 * INFO) and counted. The first answer of a daemon a watch list added is reported as a recovery too
 * ({@link #firstAnswer}). A member no longer watched is {@link FailureReporter#forget forgotten} by the reporter. A
 * reporter that throws is logged and counted, and never stops the detector.
 */
final class TransitionReporter implements TransitionListener<Target> {
    private static final Logger LOG = LoggerFactory.getLogger(TransitionReporter.class);

    private final FailureReporter reporter;
    private final FdCounters counters;
    private final long intervalMs;
    private final int miss;
    private final double phiThreshold;
    private final Map<Integer, Long> failedAtNs = new HashMap<>();

    TransitionReporter(FailureReporter reporter, FdCounters counters, FdConfig config) {
        this.reporter = reporter;
        this.counters = counters;
        this.intervalMs = TimeUnit.NANOSECONDS.toMillis(config.intervalNs());
        this.miss = config.miss();
        this.phiThreshold = config.phiThreshold();
    }

    @Override
    public void failed(int member, Target target, long nowNs) {
        counters.increment(FdCounter.FAILURES_REPORTED);
        failedAtNs.put(member, nowNs);
        LOG.warn("{} FAILED: missed at least {} rounds of {} ms, and never answered or stayed silent for longer "
                + "than its heartbeat history makes plausible (phi >= {})", target.describe(), miss, intervalMs,
                phiThreshold);
        report(target, true);
    }

    @Override
    public void recovered(int member, Target target, long nowNs) {
        counters.increment(FdCounter.RECOVERIES_REPORTED);
        Long since = failedAtNs.remove(member);
        LOG.info("{} RECOVERED: answers heartbeats again after {} ms reported failed",
                target.describe(), since == null ? "?" : TimeUnit.NANOSECONDS.toMillis(nowNs - since));
        report(target, false);
    }

    /**
     * A daemon a watch list added answered for the first time: reported recovered, since its previous detector may
     * have reported it failed (its rack was taken over from a failed detector, say) and nobody else would say it is
     * alive. Logged as RECOVERED (so a search for a node's latest verdict finds it) but without the word "failed".
     */
    @Override
    public void firstAnswer(int member, Target target, long nowNs) {
        counters.increment(FdCounter.FIRST_ANSWERS_REPORTED);
        LOG.info("{} RECOVERED: first answer since the GMS listed it here; reported, in case the detector it comes "
                + "from had declared it dead", target.describe());
        report(target, false);
    }

    /**
     * Forgets the members no longer watched (removed by a watch list): none of them will be heard of again here, and
     * the reporter drops what it still holds about each ({@link FailureReporter#forget}), so that a verdict of this
     * detector is never sent again (to the next GMS leader, say) over a newer one of the node's new detector.
     */
    void forget(Collection<Integer> members) {
        for (int member : members) {
            failedAtNs.remove(member);
            try {
                reporter.forget(member);
            } catch (RuntimeException e) {
                counters.increment(FdCounter.HANDLER_ERRORS);
                LOG.error("the failure reporter could not forget node {}", member, e);
            }
        }
    }

    private void report(Target target, boolean failed) {
        try {
            if (target.kind() == Target.Kind.DAEMON) {
                if (failed) {
                    reporter.failed(target.wireId());
                } else {
                    reporter.recovered(target.wireId());
                }
            } else if (failed) {
                reporter.detectorFailed(target.name());
            } else {
                reporter.detectorRecovered(target.name());
            }
        } catch (RuntimeException e) {
            counters.increment(FdCounter.HANDLER_ERRORS);
            LOG.error("the failure reporter refused the verdict on {}", target.describe(), e);
        }
    }
}
