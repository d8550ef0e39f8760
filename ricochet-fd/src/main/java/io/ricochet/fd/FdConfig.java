package io.ricochet.fd;

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
 * @param miss consecutive unanswered rounds after which a target is reported failed
 */
public record FdConfig(String id, InetSocketAddress bind, List<Target> targets, long intervalNs, int miss) {

    public FdConfig {
        Endpoints.detectorName(Objects.requireNonNull(id, "id"));
        Objects.requireNonNull(bind, "bind");
        targets = List.copyOf(targets);
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalNs + " ns");
        }
        if (miss < 1) {
            throw new IllegalArgumentException("miss must be at least 1: " + miss);
        }
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

    /** The source id of every frame this detector sends. */
    public int wireId() {
        return Target.detectorWireId(id);
    }
}
