package io.ricochet.workload;

import io.ricochet.engine.Counter;
import io.ricochet.latency.LatencyStats;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * The cluster-wide result of a workload: the exactly-once check over every node's result, the daemons' recovery
 * counters summed over nodes, latencies and the kernel's receive-buffer overflows. Built by
 * {@link ExactlyOnceCheck}; {@link SummaryReport} writes it as JSON and as a table.
 *
 * @param verdict            {@link #EXACTLY_ONCE}, {@link #VIOLATIONS} or {@link #NOTHING_CHECKED}
 * @param groups             group to members, as checked
 * @param totals             the delivery counts of the check
 * @param violations         kind ({@code missing}, {@code duplicates}, {@code corrupt}, {@code unexpected},
 *                           {@code lost}) to its count and first examples
 * @param nodesWithoutResult members of some group whose result file is missing (all they should have received
 *                           counts as missing)
 * @param daemonTotals       every daemon counter's change during the workload, summed over nodes
 * @param endToEnd           send-to-delivery latency over all nodes (exact: merged histograms)
 * @param daemonLatencies    the daemons' latency summaries over all nodes: exact from their merged histograms, or
 *                           combined from per-node summaries for daemons that send none (see {@link LatencyBlend})
 * @param kernel             per namespace, kernel UDP counters' changes and nftables drops (as the script gave)
 * @param kernelTotals       the same summed over namespaces
 * @param perNode            one row per node
 */
public record ClusterSummary(String verdict, SortedMap<Integer, SortedSet<Integer>> groups,
                             Totals totals, SortedMap<String, ViolationLog> violations,
                             List<Integer> nodesWithoutResult, SortedMap<String, Long> daemonTotals,
                             LatencyStats.Summary endToEnd, SortedMap<String, LatencyBlend> daemonLatencies,
                             Map<String, Map<String, Long>> kernel, SortedMap<String, Long> kernelTotals,
                             List<NodeRow> perNode) {
    /** Every sent packet reached every other member of its group exactly once, intact. */
    public static final String EXACTLY_ONCE = "EXACTLY_ONCE";
    /** At least one packet was missing, duplicated, corrupt, unexpected or reported lost. */
    public static final String VIOLATIONS = "VIOLATIONS";
    /** No packet was owed to any node (nothing sent, or no group with two members): nothing was checked. */
    public static final String NOTHING_CHECKED = "NOTHING_CHECKED";

    /** Whether the verdict is {@link #EXACTLY_ONCE}. */
    public boolean ok() {
        return EXACTLY_ONCE.equals(verdict);
    }

    /** A counter's cluster-wide change over the daemons, 0 if no daemon reported it. */
    public long daemon(Counter counter) {
        return daemon(counter.name());
    }

    /** The cluster-wide change of the counter a daemon's stats name {@code counter}, 0 if no daemon reported it. */
    public long daemon(String counter) {
        return daemonTotals.getOrDefault(counter, 0L);
    }

    /**
     * The delivery counts of the check.
     *
     * @param sent           packets sent, all nodes and groups
     * @param expected       deliveries owed: each sent packet once to every other member of its group
     * @param delivered      of those, delivered (first copies)
     * @param missing        of those, never delivered
     * @param duplicates     second and later copies delivered
     * @param corrupt        deliveries whose payload failed its check
     * @param unexpected     deliveries of packets never sent, or to nodes outside the group
     * @param lostNotices    LOST notices: packets a daemon gave up on
     * @param selfDeliveries own packets handed back to their sender (not owed, not checked)
     * @param overflowed     deliveries daemons dropped for slow clients
     * @param sendErrors     sends the daemons refused
     * @param sendSeconds    the longest time a node spent sending
     */
    public record Totals(long sent, long expected, long delivered, long missing, long duplicates, long corrupt,
                         long unexpected, long lostNotices, long selfDeliveries, long overflowed, long sendErrors,
                         double sendSeconds) {
    }

    /**
     * One node's part: as a sender, as a receiver, and what its daemon and kernel counted.
     *
     * @param node          node id
     * @param sent          packets it sent
     * @param expected      deliveries it was owed
     * @param delivered     of those, delivered
     * @param missing       of those, never delivered
     * @param duplicates    duplicates it received
     * @param lost          LOST notices it received
     * @param injectedDrops packets its daemon dropped on purpose (--inject-loss)
     * @param lec           losses its daemon recovered by LEC
     * @param nak           losses its daemon recovered by NAK
     * @param rxDrops       packets its daemon's full receive buffer dropped
     * @param rcvbufErrors  its namespace's kernel UDP receive-buffer overflows
     * @param nftDrops      packets nftables dropped on its link
     */
    public record NodeRow(int node, long sent, long expected, long delivered, long missing, long duplicates,
                          long lost, long injectedDrops, long lec, long nak, long rxDrops, long rcvbufErrors,
                          long nftDrops) {
    }
}
