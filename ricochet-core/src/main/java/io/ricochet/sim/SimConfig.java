package io.ricochet.sim;

import io.ricochet.engine.ProtocolFactory;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * One simulation run: the workload of section 5, the protocol settings, the loss model and the seed. Values are
 * checked on construction; a bad one is refused with a message naming its command-line flag.
 *
 * @param nodes        n
 * @param degree       d, groups per node
 * @param groupSize    s, mean group size
 * @param protocol     the protocol every node runs, with its settings
 * @param loss         loss model applied at every receiver
 * @param lossScope    which packet types the model applies to
 * @param seconds      measured traffic duration (packets sent in [0, seconds) are measured)
 * @param drainSeconds traffic continues unmeasured this long after, so the last measured packets get repairs;
 *                     then the run goes on without traffic until every timer has fired
 * @param ratePerNode  data packets per second arriving at each node, on average
 * @param payload      payload bytes of every data packet
 * @param latencyNs    one-hop network latency
 * @param seed         fixes every random choice of the run
 * @param membership   the groups of each node (node index 0..n-1 to d distinct group indices in 0..g-1), e.g. a
 *                     real cluster's plan; null = the seeded random grouping of section 5
 */
public record SimConfig(int nodes, int degree, int groupSize, ProtocolFactory protocol,
                        LossSpec loss,
                        LossScope lossScope, double seconds, double drainSeconds, double ratePerNode, int payload,
                        long latencyNs, long seed, List<List<Integer>> membership) {

    public SimConfig {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(loss, "loss");
        Objects.requireNonNull(lossScope, "lossScope");
        require(nodes >= 2 && nodes <= 4096, "--nodes", nodes, "must be in 2..4096");
        require(groupSize >= 2 && groupSize <= nodes, "--group-size", groupSize,
                "must be in 2..--nodes (" + nodes + ")");
        require(degree >= 1 && degree <= Workload.groupCount(nodes, degree, groupSize), "--degree", degree,
                "must be at least 1");
        require(degree <= 4096, "--degree", degree, "must be at most 4096");
        require(seconds > 0 && seconds <= 3600, "--seconds", seconds, "must be in (0, 3600]");
        require(drainSeconds >= 0 && drainSeconds <= 60, "--drain-seconds", drainSeconds, "must be in [0, 60]");
        require(ratePerNode > 0 && ratePerNode <= 1_000_000, "--rate-per-node", ratePerNode,
                "must be in (0, 1000000]");
        require(payload >= 1 && payload <= protocol.maxPayload(), "--payload", payload,
                "must be in 1.." + protocol.maxPayload());
        require(latencyNs >= 0 && latencyNs <= 1_000_000_000L, "--latency-us", latencyNs / 1000.0,
                "must be in [0, 1000000]");
        membership = membership == null ? null : checked(membership, nodes, degree,
                Workload.groupCount(nodes, degree, groupSize));
    }

    private static List<List<Integer>> checked(List<List<Integer>> membership, int nodes, int degree, int groups) {
        if (membership.size() != nodes) {
            throw new IllegalArgumentException("--plan: has " + membership.size() + " nodes, but --nodes is "
                    + nodes);
        }
        List<List<Integer>> copy = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            List<Integer> own = List.copyOf(membership.get(node));
            if (own.size() != degree || new HashSet<>(own).size() != degree) {
                throw new IllegalArgumentException("--plan: node index " + node + " is in " + new HashSet<>(own).size()
                        + " distinct groups, but --degree is " + degree);
            }
            for (int g : own) {
                if (g < 0 || g >= groups) {
                    throw new IllegalArgumentException("--plan: group index " + g + " of node index " + node
                            + " is outside 0.." + (groups - 1) + " (n*d/s = " + groups + " groups)");
                }
            }
            copy.add(own);
        }
        return List.copyOf(copy);
    }

    /** A run of {@code protocol} on the seeded random grouping of section 5. */
    public SimConfig(int nodes, int degree, int groupSize, ProtocolFactory protocol,
                     LossSpec loss, LossScope lossScope, double seconds, double drainSeconds, double ratePerNode,
                     int payload, long latencyNs, long seed) {
        this(nodes, degree, groupSize, protocol, loss, lossScope, seconds, drainSeconds, ratePerNode, payload,
                latencyNs, seed, null);
    }

    private static void require(boolean ok, String flag, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(flag + " " + value + ": " + rule);
        }
    }

    public long measuredNs() {
        return (long) (seconds * 1e9);
    }

    public long trafficEndNs() {
        return (long) ((seconds + drainSeconds) * 1e9);
    }
}
