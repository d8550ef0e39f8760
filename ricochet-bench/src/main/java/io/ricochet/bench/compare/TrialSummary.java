package io.ricochet.bench.compare;

import io.ricochet.latency.LatencyStats;
import io.ricochet.workload.LatencyHistogram;
import java.util.List;

/**
 * One trial's figures, from its members' results. A receiver is a member others sent to; its expected deliveries are
 * the other members' sends (every member is in every group of the trial). CPU is every member process's CPU in the
 * measured window; with every member in one process, that one process's (each member reports the same).
 *
 * @param system                 the system
 * @param packaging              how members were packaged
 * @param members                members in the trial
 * @param groupsPerMember        groups each member is in
 * @param payloadBytes           bytes per message
 * @param sent                   messages sent by all members
 * @param expected               deliveries expected over all receivers
 * @param delivered              deliveries over all receivers
 * @param deliveredRatio         delivered / expected
 * @param perReceiverPerSecond   mean over receivers of deliveries per second in the window
 * @param minPerReceiverPerSecond the slowest receiver's deliveries per second in the window
 * @param cpuSeconds             CPU seconds of the member processes in the window
 * @param cpuMicrosPerDelivery   those CPU seconds per delivery in the window, in microseconds
 * @param drops                  first copies dropped by the loss injection
 * @param dropsNotDelivered      of those, never delivered
 * @param recoveryMs             send-to-delivery latency of the dropped messages sent in the window, ms
 * @param latencyMs              send-to-delivery latency of every delivery of a message sent in the window, ms
 * @param malformed              deliveries that were not harness payloads
 * @param failedSends            sends the system refused
 * @param results                the members' own results
 * @param variant                the system as configured, for the tables ({@link SystemKind#variant})
 * @param latencyP999Ms          p99.9 of {@code latencyMs}
 * @param recoveryP999Ms         p99.9 of {@code recoveryMs}
 * @param conditions             the link and loss the trial ran on, and what the network counted
 */
public record TrialSummary(String system, String packaging, int members, int groupsPerMember, int payloadBytes,
                           long sent, long expected, long delivered, double deliveredRatio,
                           double perReceiverPerSecond, double minPerReceiverPerSecond, double cpuSeconds,
                           double cpuMicrosPerDelivery, long drops, long dropsNotDelivered,
                           LatencyStats.Summary recoveryMs, LatencyStats.Summary latencyMs, long malformed,
                           long failedSends, List<MemberResult> results, String variant, double latencyP999Ms,
                           double recoveryP999Ms, Conditions conditions) {
    /**
     * The link and loss of a trial, and the network's counts over its receivers' namespaces (nftables: UDP packets
     * seen and dropped at ingress, fragments apart; the kernel's /proc/net/snmp deltas: receive buffer overflows,
     * failed reassemblies), totals and per member.
     *
     * @param link       "loopback" or "mtu=N"
     * @param loss       the loss rate applied
     * @param lossBy     who dropped: "nftables on the link" (the link, both systems alike) or "injector" (each system's
     *                   own, loopback) or "none"
     * @param network    the counts summed over the receivers' namespaces
     * @param perMember  the counts per member namespace
     */
    public record Conditions(String link, double loss, String lossBy, java.util.Map<String, Long> network,
                             java.util.Map<Integer, java.util.Map<String, Long>> perMember) {
        /** Loopback with loss {@code loss} by the systems' injectors. */
        static Conditions loopback(double loss) {
            return new Conditions("loopback", loss, loss == 0 ? "none" : "injector", java.util.Map.of(),
                    java.util.Map.of());
        }
    }

    /** This summary on {@code conditions}. */
    public TrialSummary with(Conditions conditions) {
        return new TrialSummary(system, packaging, members, groupsPerMember, payloadBytes, sent, expected, delivered,
                deliveredRatio, perReceiverPerSecond, minPerReceiverPerSecond, cpuSeconds, cpuMicrosPerDelivery, drops,
                dropsNotDelivered, recoveryMs, latencyMs, malformed, failedSends, results, variant, latencyP999Ms,
                recoveryP999Ms, conditions);
    }

    /** The summary of {@code results} (one per plan, in the same order). */
    public static TrialSummary of(Packaging packaging, List<MemberPlan> plans, List<MemberResult> results) {
        if (plans.isEmpty() || plans.size() != results.size()) {
            throw new IllegalArgumentException(plans.size() + " plans but " + results.size() + " results");
        }
        long sent = results.stream().mapToLong(MemberResult::sent).sum();
        long expected = 0;
        long delivered = 0;
        long windowDeliveries = 0;
        double rateSum = 0;
        double rateMin = Double.MAX_VALUE;
        int receivers = 0;
        LatencyHistogram recovery = new LatencyHistogram();
        LatencyHistogram latency = new LatencyHistogram();
        for (MemberResult r : results) {
            long fromOthers = sent - r.sent();
            recovery.add(LatencyHistogram.decode(r.recoveryHistogram()));
            latency.add(LatencyHistogram.decode(r.latencyHistogram()));
            if (fromOthers == 0) {
                continue;
            }
            receivers++;
            expected += fromOthers;
            delivered += r.delivered();
            windowDeliveries += r.deliveredInWindow();
            double rate = r.windowSeconds() > 0 ? r.deliveredInWindow() / r.windowSeconds() : 0;
            rateSum += rate;
            rateMin = Math.min(rateMin, rate);
        }
        double cpu = packaging == Packaging.INPROCESS
                ? results.stream().mapToDouble(MemberResult::cpuSeconds).max().orElse(0)
                : results.stream().mapToDouble(MemberResult::cpuSeconds).sum();
        MemberPlan first = plans.get(0);
        return new TrialSummary(first.system().cliName(), packaging.cliName(), plans.size(), first.groups().size(),
                first.payloadBytes(), sent, expected, delivered, expected == 0 ? 0 : (double) delivered / expected,
                receivers == 0 ? 0 : rateSum / receivers, receivers == 0 ? 0 : rateMin, cpu,
                windowDeliveries == 0 || cpu < 0 ? -1 : cpu * 1e6 / windowDeliveries,
                results.stream().mapToLong(MemberResult::drops).sum(),
                results.stream().mapToLong(MemberResult::dropsPending).sum(), recovery.summary(), latency.summary(),
                results.stream().mapToLong(MemberResult::malformed).sum(),
                results.stream().mapToLong(MemberResult::failedSends).sum(), results, SystemKind.variant(first),
                latency.percentileMs(99.9), recovery.percentileMs(99.9), Conditions.loopback(first.loss()));
    }
}
