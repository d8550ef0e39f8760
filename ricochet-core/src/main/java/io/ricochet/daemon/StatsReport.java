package io.ricochet.daemon;

import io.ricochet.api.NodeStats;
import io.ricochet.driver.LatencyStats;
import io.ricochet.driver.RecoveryLatencies;
import io.ricochet.engine.Counter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.lec.LecCounter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a daemon's {@link NodeStats} from its driver, on the engine's event loop. */
final class StatsReport {
    private StatsReport() {
    }

    /** What the node knows of itself that the driver does not (identity, sockets). */
    record Identity(int node, long incarnation, String protocol, String transport, String authentication,
                    int socketReceiveBufferGranted) {
    }

    static NodeStats of(Identity id, EngineDriver driver, Map<Integer, NodeStats.GmsLink> gms) {
        ProtocolEngine engine = driver.engine();
        Map<String, Long> counters = new LinkedHashMap<>();
        engine.counters().snapshot().forEach((counter, value) -> counters.put(counter.name(), value));
        driver.counters().snapshot().forEach((counter, value) -> counters.put(counter.name(), value));
        long received = engine.counters().get(EngineCounter.DATA_RECEIVED);
        double xors = received == 0 ? 0.0
                : Math.round(1000.0 * engine.counters().get(LecCounter.BIN_XORS) / received) / 1000.0;
        Map<String, Long> buffers = new LinkedHashMap<>(engine.bufferUsage());
        buffers.put("rxBufferPackets", (long) driver.receiveBuffer().size());
        buffers.put("rxBufferBytes", driver.receiveBuffer().memoryBytes());
        List<Integer> groups = driver.myGroups();
        Map<Integer, List<Integer>> members = new LinkedHashMap<>();
        for (int group : groups) {
            members.put(group, driver.views().others(group));
        }
        return new NodeStats(id.node(), id.incarnation(), id.protocol(), id.transport(), id.authentication(),
                id.socketReceiveBufferGranted(), counters, xors, latencies(driver.latencies()), buffers, groups,
                members, null, gms);
    }

    private static NodeStats.Latencies latencies(RecoveryLatencies r) {
        Map<String, String> histograms = new LinkedHashMap<>();
        histograms.put("lecRecoveryLatencyMs", r.lec().encode());
        histograms.put("nakRecoveryLatencyMs", r.nak().encode());
        histograms.put("discoveryLatencyMs", r.discovery().encode());
        histograms.put("recoveryAfterDiscoveryMs", r.sinceDiscovery().encode());
        return new NodeStats.Latencies(r.lec().summary(), r.nak().summary(), r.discovery().summary(),
                r.sinceDiscovery().summary(), histograms);
    }

    /** The counters a one-line log shows: the nonzero ones. */
    static Map<String, Long> nonZero(Map<Counter, Long> snapshot) {
        Map<String, Long> shown = new LinkedHashMap<>();
        snapshot.forEach((counter, value) -> {
            if (value != 0) {
                shown.put(counter.name(), value);
            }
        });
        return shown;
    }

    /** For the periodic log line: summaries only. */
    static String latencyLine(NodeStats.Latencies l) {
        return "lec " + brief(l.lecRecoveryLatencyMs()) + ", nak " + brief(l.nakRecoveryLatencyMs())
                + ", discovery " + brief(l.discoveryLatencyMs());
    }

    private static String brief(LatencyStats.Summary s) {
        return s.count() + " (mean " + s.mean() + " ms, p99 " + s.p99() + " ms)";
    }
}
