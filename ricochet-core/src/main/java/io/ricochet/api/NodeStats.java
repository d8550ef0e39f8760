package io.ricochet.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.ricochet.engine.Counter;
import io.ricochet.latency.LatencyStats;
import java.util.List;
import java.util.Map;

/**
 * One daemon's stats, as {@code ricochet stats} and the local API's STATS reply carry them (JSON, written and read
 * with Jackson; unknown fields are ignored when read, so a newer daemon's stats still parse).
 *
 * @param node                       the daemon's node id
 * @param incarnation                the daemon process's incarnation
 * @param protocol                   the protocol its engine runs
 * @param transport                  {@code epoll} or {@code nio}
 * @param authentication             how datagrams and control links are authenticated, or that they are not (insecure)
 * @param socketReceiveBufferGranted the socket receive buffer the kernel granted, in bytes
 * @param counters                   the running protocol's counters, then the daemon's own, by name, in id order
 * @param xorsPerDataPacket          LEC's XORs per data packet received (0 for other protocols)
 * @param daemon                     the recovery latencies measured by the daemon
 * @param buffers                    what each bounded buffer holds (entries or bytes, as named)
 * @param groups                     the groups this node is in
 * @param members                    the other members of each of those groups
 * @param api                        the local API server's counters, by name
 * @param gms                        per GMS partition: whether its link is up, the replica that leads it, the
 *                                   partition's Raft term and the leader's commit index as last heard
 * @param takenAtNs                  the daemon's monotonic clock ({@link System#nanoTime}) when the counters were
 *                                   read: the difference between two replies of one daemon process is the time
 *                                   their counters' differences took (0 from a daemon that does not say)
 * @param takenAtEpochMs             the daemon's wall clock, milliseconds since the epoch, at the same moment (0 from
 *                                   a daemon that does not say)
 * @param rateOfFire                 with rate-of-fire tuning on: each group's (r, c, stagger) and why, e.g.
 *                                   {@code "r 8, c 3.0, stagger 1: target met (loss 0.098 %, LEC 91.2 %, node's
 *                                   evidence)"}; null (absent) when tuning is off
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeStats(int node, long incarnation, String protocol, String transport, String authentication,
                        int socketReceiveBufferGranted, Map<String, Long> counters, double xorsPerDataPacket,
                        Latencies daemon, Map<String, Long> buffers, List<Integer> groups,
                        Map<Integer, List<Integer>> members, Map<String, Long> api, Map<Integer, GmsLink> gms,
                        long takenAtNs, long takenAtEpochMs, Map<Integer, String> rateOfFire) {

    /** Stats without rate-of-fire tuning. */
    public NodeStats(int node, long incarnation, String protocol, String transport, String authentication,
                     int socketReceiveBufferGranted, Map<String, Long> counters, double xorsPerDataPacket,
                     Latencies daemon, Map<String, Long> buffers, List<Integer> groups,
                     Map<Integer, List<Integer>> members, Map<String, Long> api, Map<Integer, GmsLink> gms,
                     long takenAtNs, long takenAtEpochMs) {
        this(node, incarnation, protocol, transport, authentication, socketReceiveBufferGranted, counters,
                xorsPerDataPacket, daemon, buffers, groups, members, api, gms, takenAtNs, takenAtEpochMs, null);
    }

    /** Stats that do not say when they were taken ({@code takenAtNs} and {@code takenAtEpochMs} 0). */
    public NodeStats(int node, long incarnation, String protocol, String transport, String authentication,
                     int socketReceiveBufferGranted, Map<String, Long> counters, double xorsPerDataPacket,
                     Latencies daemon, Map<String, Long> buffers, List<Integer> groups,
                     Map<Integer, List<Integer>> members, Map<String, Long> api, Map<Integer, GmsLink> gms) {
        this(node, incarnation, protocol, transport, authentication, socketReceiveBufferGranted, counters,
                xorsPerDataPacket, daemon, buffers, groups, members, api, gms, 0, 0);
    }

    /**
     * One GMS partition as the daemon sees it.
     *
     * @param up          whether the daemon is served by the partition's leader now
     * @param leader      the replica ({@code host:port}) that served it last, or null if none has yet
     * @param term        the partition's Raft term, as that leader last said
     * @param commitIndex the leader's Raft commit index, as it last said (it says again when it moves, at most
     *                    once a second)
     */
    public record GmsLink(boolean up, String leader, long term, long commitIndex) {
    }

    /**
     * Recovery latencies in milliseconds, each a summary and, under {@code latencyHistograms}, the same
     * distribution as a compressed histogram (base64), so that nodes' recordings can be merged exactly.
     *
     * @param lecRecoveryLatencyMs     from an injected drop to recovery by LEC
     * @param nakRecoveryLatencyMs     from an injected drop to recovery by the NAK layer
     * @param discoveryLatencyMs       from an injected drop to its discovery
     * @param recoveryAfterDiscoveryMs from discovery to recovery, for every loss
     * @param latencyHistograms        the four distributions, keyed like the fields above
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Latencies(LatencyStats.Summary lecRecoveryLatencyMs, LatencyStats.Summary nakRecoveryLatencyMs,
                            LatencyStats.Summary discoveryLatencyMs, LatencyStats.Summary recoveryAfterDiscoveryMs,
                            Map<String, String> latencyHistograms) {
    }

    /** The value of {@code counter}, 0 if this node does not have it. */
    public long counter(Counter counter) {
        Long value = counters == null ? null : counters.get(counter.name());
        return value == null ? 0 : value;
    }

    /** The same stats with the API server's counters. */
    public NodeStats withApi(Map<String, Long> apiCounters) {
        return new NodeStats(node, incarnation, protocol, transport, authentication, socketReceiveBufferGranted,
                counters, xorsPerDataPacket, daemon, buffers, groups, members, apiCounters, gms, takenAtNs,
                takenAtEpochMs, rateOfFire);
    }
}
