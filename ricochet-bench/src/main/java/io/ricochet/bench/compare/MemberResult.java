package io.ricochet.bench.compare;

import java.util.Map;

/**
 * What one member reports at the end of a trial (as JSON from a member's own process).
 *
 * @param member             its id
 * @param sent               messages it sent (taken by its system)
 * @param failedSends        sends its system refused
 * @param delivered          deliveries of other members' messages, over the whole trial
 * @param deliveredInWindow  deliveries within the measured window
 * @param windowSeconds      the window's length as measured
 * @param cpuSeconds         CPU time of its whole process within the window (every member's, when in one process)
 * @param perSender          deliveries per sending member
 * @param drops              first copies the loss injection dropped at it
 * @param dropsPending       of those, not delivered by the end
 * @param dropsForgotten     drops forgotten (more pending than the drop log keeps)
 * @param malformed          deliveries that were not harness payloads
 * @param recoveryHistogram  send-to-delivery latency of the dropped messages (LatencyHistogram, encoded)
 * @param latencyHistogram   send-to-delivery latency of every delivery (LatencyHistogram, encoded)
 * @param counters           the system's own non-zero counters of the member ({@link GroupMember#counters})
 */
public record MemberResult(int member, long sent, long failedSends, long delivered, long deliveredInWindow,
                           double windowSeconds, double cpuSeconds, Map<Integer, Long> perSender, long drops,
                           long dropsPending, long dropsForgotten, long malformed, String recoveryHistogram,
                           String latencyHistogram, Map<String, Long> counters) {
    public MemberResult {
        perSender = Map.copyOf(perSender);
        counters = Map.copyOf(counters);
    }
}
