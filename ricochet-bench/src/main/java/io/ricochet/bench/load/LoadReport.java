package io.ricochet.bench.load;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one load generator did, as printed and written to JSON by {@code bench load}.
 *
 * @param nodeId           its node id
 * @param address          its unicast address
 * @param groups           its groups, as a group list
 * @param transport        epoll or nio
 * @param sending          how frames went out: frames per group in a row, GSO or not, multicast looped back or not
 * @param payloadBytes     payload of every packet
 * @param targetRate       packets per second asked for (over the whole schedule)
 * @param seconds          sending time asked for
 * @param schedule         the rate schedule followed, {@code RATE:SECONDS,...}
 * @param startEpochMillis when the first batch went out, in milliseconds since the epoch
 * @param sendSeconds      sending time measured, from the first batch to the last
 * @param sent             data packets sent
 * @param achievedRate     sent / sendSeconds
 * @param behindAtEnd      packets of the last phase due by the end but not sent (the pacer's debt: the sender could
 *                         not keep up)
 * @param skipped          packets the earlier phases owed at their ends, never sent (see {@link Pacer})
 * @param maxBatch         the most packets one tick may send
 * @param tickMicros       pacing interval
 * @param writeStalls      ticks skipped because the socket's queue was full
 * @param sessionsSent     SESSION frames sent at the end (one per group)
 * @param naksReceived     NAKs received
 * @param retransmitsSent  NAKs answered with RETRANSMIT
 * @param goneSent         NAKs answered with GONE
 * @param naksRefused      NAKs not answered (malformed, not for this node, or from a node no view lists)
 * @param repairsReceived  LEC repairs received from receivers (dropped)
 * @param otherReceived    other datagrams received (dropped)
 * @param unauthenticReceived datagrams dropped unread: not authentic, stale or replayed (0 when insecure)
 * @param authentication   how its datagrams were authenticated: the cluster key, or none (--insecure)
 * @param cpuSeconds       this process's CPU time while sending
 * @param cpuPercentOfCore cpuSeconds / sendSeconds, in percent of one core
 * @param leftCleanly      whether the GMS confirmed the LEAVE of every group
 * @param sentPerGroup     data packets sent in each group: seqnos 0 .. n - 1 of stream (nodeId, group)
 * @param progress         packets sent so far, noted about every 0.1 s while sending: [epoch ms, sent] pairs
 * @param progressTruncated whether {@code progress} stopped early (its bound was reached)
 */
public record LoadReport(int nodeId, String address, String groups, String transport, String sending,
                         int payloadBytes,
                         double targetRate, double seconds, String schedule, long startEpochMillis,
                         double sendSeconds, long sent, double achievedRate,
                         long behindAtEnd, long skipped, int maxBatch, int tickMicros, long writeStalls,
                         long sessionsSent,
                         long naksReceived, long retransmitsSent, long goneSent, long naksRefused,
                         long repairsReceived, long otherReceived, long unauthenticReceived, String authentication,
                         double cpuSeconds, double cpuPercentOfCore,
                         boolean leftCleanly, Map<Integer, Long> sentPerGroup, List<long[]> progress,
                         boolean progressTruncated) {

    /** One line for a terminal. */
    public String summary() {
        return String.format(Locale.ROOT,
                "load node %d: sent %d in %.2f s = %.0f/s (target %.0f/s, %d behind, %d skipped at phase changes), "
                        + "NAKs %d (retransmit %d, gone %d), repairs received %d, unauthentic dropped %d, "
                        + "CPU %.0f %% of a core",
                nodeId, sent, sendSeconds, achievedRate, targetRate, behindAtEnd, skipped, naksReceived,
                retransmitsSent,
                goneSent, repairsReceived, unauthenticReceived, cpuPercentOfCore);
    }
}
