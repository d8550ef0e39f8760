package io.ricochet.fd;

import io.ricochet.auth.Authentication;
import io.ricochet.control.verdict.DetectorAddresses;
import io.ricochet.metrics.MetricsBind;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one failure detector server needs, validated: who it is, where it listens, what it pings and how
 * fast it decides (see {@code docs/design/failure-detection.md}).
 *
 * @param id this detector's name; {@link Target#detectorWireId} of it is the source of the frames it sends
 * @param bind the UDP address it binds: heartbeats leave from it, acks and heartbeats to answer arrive on it
 * @param targets what it pings: daemons of its rack, and (top level) rack detectors and the next chain member
 * @param intervalNs time between heartbeat rounds
 * @param miss the least number of consecutive unanswered rounds before a target can be reported failed
 * @param phiThreshold suspicion level at which a target that has missed {@code miss} rounds is reported failed
 * @param acceptablePauseNs silence longer than a target's usual inter-arrival time that is still normal
 * @param minStdDevNs floor of the standard deviation of a target's inter-arrival times
 * @param auth how heartbeats and acks are authenticated (the cluster key file), or insecure mode
 * @param metrics where its Prometheus endpoint listens, or {@link MetricsBind#OFF} (the default)
 * @param watchedBy the detectors that ping this one (the top level), each answered only at its listed address, or
 *                  {@link DetectorAddresses#NONE} (the default): every heartbeat answered at its source address
 */
public record FdConfig(String id, InetSocketAddress bind, List<Target> targets, long intervalNs, int miss,
                       double phiThreshold, long acceptablePauseNs, long minStdDevNs, Authentication auth,
                       MetricsBind metrics, DetectorAddresses watchedBy) {

    /** A configuration with the default phi parameters ({@link PhiParameters#DEFAULTS}), unauthenticated. */
    public FdConfig(String id, InetSocketAddress bind, List<Target> targets, long intervalNs, int miss) {
        this(id, bind, targets, intervalNs, miss, PhiParameters.DEFAULTS.threshold(),
                PhiParameters.DEFAULTS.acceptablePauseNs(), PhiParameters.DEFAULTS.minStdDevNs(),
                Authentication.insecure());
    }

    /** A configuration without a metrics endpoint. */
    public FdConfig(String id, InetSocketAddress bind, List<Target> targets, long intervalNs, int miss,
                    double phiThreshold, long acceptablePauseNs, long minStdDevNs, Authentication auth) {
        this(id, bind, targets, intervalNs, miss, phiThreshold, acceptablePauseNs, minStdDevNs, auth, MetricsBind.OFF);
    }

    /** With no list of the detectors that ping this one (each heartbeat answered at its source address). */
    public FdConfig(String id, InetSocketAddress bind, List<Target> targets, long intervalNs, int miss,
                    double phiThreshold, long acceptablePauseNs, long minStdDevNs, Authentication auth,
                    MetricsBind metrics) {
        this(id, bind, targets, intervalNs, miss, phiThreshold, acceptablePauseNs, minStdDevNs, auth, metrics,
                DetectorAddresses.NONE);
    }

    /** The same configuration, its datagrams authenticated as {@code authentication} says. */
    public FdConfig withAuth(Authentication authentication) {
        return new FdConfig(id, bind, targets, intervalNs, miss, phiThreshold, acceptablePauseNs, minStdDevNs,
                authentication, metrics, watchedBy);
    }

    /** The same configuration, its Prometheus endpoint at {@code where}. */
    public FdConfig withMetrics(MetricsBind where) {
        return new FdConfig(id, bind, targets, intervalNs, miss, phiThreshold, acceptablePauseNs, minStdDevNs, auth,
                where, watchedBy);
    }

    /** The same configuration, answering heartbeats only of the detectors {@code detectors} lists, at their address. */
    public FdConfig withWatchedBy(DetectorAddresses detectors) {
        return new FdConfig(id, bind, targets, intervalNs, miss, phiThreshold, acceptablePauseNs, minStdDevNs, auth,
                metrics, detectors);
    }

    public FdConfig {
        Endpoints.detectorName(Objects.requireNonNull(id, "id"));
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(watchedBy, "watchedBy");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(auth, "auth");
        targets = List.copyOf(targets);
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalNs + " ns");
        }
        if (miss < 1) {
            throw new IllegalArgumentException("miss must be at least 1: " + miss);
        }
        new PhiParameters(phiThreshold, acceptablePauseNs, minStdDevNs);
        int ownWireId = Target.detectorWireId(id);
        Map<Integer, Target> byWireId = new HashMap<>();
        for (Target target : targets) {
            Target clash = byWireId.putIfAbsent(target.wireId(), target);
            if (clash != null) {
                throw new IllegalArgumentException(target.describe() + " and " + clash.describe()
                        + " answer with the same wire id " + target.wireId());
            }
            if (target.wireId() == ownWireId) {
                throw new IllegalArgumentException(target.describe() + " answers with this detector's own wire id "
                        + ownWireId);
            }
        }
    }

    /** The phi parameters, as the detector takes them. */
    public PhiParameters phi() {
        return new PhiParameters(phiThreshold, acceptablePauseNs, minStdDevNs);
    }

    /** The source id of every frame this detector sends. */
    public int wireId() {
        return Target.detectorWireId(id);
    }
}
