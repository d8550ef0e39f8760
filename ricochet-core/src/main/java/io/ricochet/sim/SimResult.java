package io.ricochet.sim;

import io.ricochet.engine.Counter;
import io.ricochet.latency.LatencyStats;
import java.util.List;
import java.util.Map;

/**
 * The figures of one simulation run, with the paper's definitions (section 5): a loss is a measured data packet
 * dropped at a receiver; LEC / NAK recovery % are the shares of losses recovered each way; recovery latency is
 * recovery time minus the time the lost packet would have arrived; overhead % = proactive repair packets (LEC or
 * FEC) / (data + those), counted on the wire; control messages are every other non-data packet (NAKs,
 * retransmissions, session messages, SRM requests and repairs, gossip), per node per second of traffic. With
 * Ricochet's fountain backup on, losses rebuilt from fountain symbols are counted apart ({@code fountainRecovered});
 * they count among the NAK layer's control messages.
 */
public record SimResult(
        Map<String, Object> parameters,
        long dataPackets,
        long losses,
        long lecRecovered,
        long nakRecovered,
        long lateArrivals,
        long unrecovered,
        double lecRecoveryPercent,
        double nakRecoveryPercent,
        double unrecoveredPercent,
        LatencyStats.Summary recoveryLatencyMs,
        LatencyStats.Summary lecRecoveryLatencyMs,
        LatencyStats.Summary nakRecoveryLatencyMs,
        LatencyStats.Summary discoveryLatencyMs,
        double overheadPercent,
        double controlPerNodePerSecond,
        double xorsPerDataPacket,
        long corruptDeliveries,
        long duplicateDeliveries,
        long simulatedEvents,
        List<HistogramBin> recoveryHistogram,
        Map<Counter, Long> counters,
        long fountainRecovered,
        LatencyStats.Summary fountainRecoveryLatencyMs) {

    /** Recoveries whose latency fell in [fromMs, toMs), split by LEC and NAK (the paper's Figure 8). */
    public record HistogramBin(double fromMs, double toMs, long lec, long nak) {
    }

    /** True if every delivered payload matched what was sent and nothing was delivered twice. */
    public boolean verified() {
        return corruptDeliveries == 0 && duplicateDeliveries == 0;
    }
}
