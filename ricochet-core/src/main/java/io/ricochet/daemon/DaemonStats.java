package io.ricochet.daemon;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import io.ricochet.sim.LatencyStats;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The daemon's own measurements, beside the engine's counters: injected drops, and recovery and discovery
 * latencies. With injected loss the drop time of each lost packet is known exactly, so recovery latency is
 * measured as the paper defines it (recovery time minus the time the packet would have arrived); for losses the
 * daemon did not inject it is measured from discovery. Owned by the engine thread.
 */
final class DaemonStats {
    /** Key, under {@code daemon} in the stats, of the latency histograms (summary key to base64). */
    static final String LATENCY_HISTOGRAMS = "latencyHistograms";
    private static final int TRACKED = 65_536;

    private final BoundedTimes dropTimes = new BoundedTimes(TRACKED);
    private final BoundedTimes discoveryTimes = new BoundedTimes(TRACKED);
    private final LatencyStats lecRecovery = new LatencyStats();
    private final LatencyStats nakRecovery = new LatencyStats();
    private final LatencyStats discovery = new LatencyStats();
    private final LatencyStats sinceDiscovery = new LatencyStats();
    long injectedDrops;
    long unknownDestinations;
    long heartbeatsAnswered;

    void injectedDrop(PacketId id, long nowNs) {
        injectedDrops++;
        dropTimes.put(id, nowNs);
    }

    void discovered(PacketId id, long nowNs) {
        discoveryTimes.put(id, nowNs);
    }

    /** A lost packet was recovered by LEC or by a NAK at {@code nowNs}. */
    void recovered(PacketId id, Delivery how, long nowNs) {
        Long dropped = dropTimes.take(id);
        Long found = discoveryTimes.take(id);
        if (dropped != null) {
            (how == Delivery.LEC ? lecRecovery : nakRecovery).recordNs(nowNs - dropped);
            if (found != null) {
                discovery.recordNs(found - dropped);
            }
        }
        if (found != null) {
            sinceDiscovery.recordNs(nowNs - found);
        }
    }

    /** Figures for {@code ricochet stats}: counts and latency summaries in milliseconds. */
    Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("injectedDrops", injectedDrops);
        m.put("unknownDestinations", unknownDestinations);
        m.put("heartbeatsAnswered", heartbeatsAnswered);
        m.put("lecRecoveryLatencyMs", lecRecovery.summary());
        m.put("nakRecoveryLatencyMs", nakRecovery.summary());
        m.put("discoveryLatencyMs", discovery.summary());
        m.put("recoveryAfterDiscoveryMs", sinceDiscovery.summary());
        // The same four distributions as compressed histograms (base64), keyed like their summaries, so that a
        // workload summary can merge the nodes' recordings into exact cluster-wide percentiles.
        Map<String, String> histograms = new LinkedHashMap<>();
        histograms.put("lecRecoveryLatencyMs", lecRecovery.encode());
        histograms.put("nakRecoveryLatencyMs", nakRecovery.encode());
        histograms.put("discoveryLatencyMs", discovery.encode());
        histograms.put("recoveryAfterDiscoveryMs", sinceDiscovery.encode());
        m.put(LATENCY_HISTOGRAMS, histograms);
        return m;
    }
}
