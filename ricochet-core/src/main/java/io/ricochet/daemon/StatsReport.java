package io.ricochet.daemon;

import io.ricochet.api.NodeStats;
import io.ricochet.api.RateOfFireLine;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.latency.LatencyStats;
import io.ricochet.latency.RecoveryLatencies;
import io.ricochet.lec.tuning.GroupTuning;
import io.ricochet.lecnak.RicochetEngine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Builds a daemon's {@link NodeStats} from its driver, on the engine's event loop. */
final class StatsReport {
    private StatsReport() {
    }

    /** What the node knows of itself that the driver does not (identity, sockets). */
    record Identity(int node, long incarnation, String protocol, String transport, String authentication,
                    int socketReceiveBufferGranted) {
    }

    /**
     * The stats as of now: {@code takenAtNs} and {@code takenAtEpochMs} are the monotonic and wall clocks read as the
     * counters are, so a reader measures rates over the daemon's own interval between two replies.
     */
    static NodeStats of(Identity id, EngineDriver driver, Landing landing, Map<Integer, NodeStats.GmsLink> gms,
                        long takenAtNs, long takenAtEpochMs) {
        ProtocolEngine engine = driver.engine();
        Map<String, Long> counters = new LinkedHashMap<>();
        engine.counters().snapshot().forEach((counter, value) -> counters.put(counter.name(), value));
        driver.counters().snapshot().forEach((counter, value) -> counters.put(counter.name(), value));
        long received = engine.counters().get(EngineCounter.DATA_RECEIVED);
        double xors = received == 0 ? 0.0
                : Math.round(1000.0 * engine.repairXors() / received) / 1000.0;
        Map<String, Long> buffers = new LinkedHashMap<>(engine.bufferUsage());
        buffers.put("rxBufferPackets", (long) landing.buffered());
        buffers.put("rxBufferBytes", landing.memoryBytes());
        buffers.put("reassemblyBytes", driver.messages().reassemblyBytes());
        buffers.put("fifoHeldBytes", driver.messages().heldBytes());
        List<Integer> groups = driver.myGroups();
        Map<Integer, List<Integer>> members = new LinkedHashMap<>();
        for (int group : groups) {
            members.put(group, driver.views().others(group));
        }
        return new NodeStats(id.node(), id.incarnation(), id.protocol(), id.transport(), id.authentication(),
                id.socketReceiveBufferGranted(), counters, xors, latencies(driver.latencies()), buffers, groups,
                members, null, gms, takenAtNs, takenAtEpochMs, rateOfFire(engine));
    }

    /** With rate-of-fire tuning on: each group's (r, c, stagger) and why c is what it is; null when off. */
    static Map<Integer, String> rateOfFire(ProtocolEngine engine) {
        if (!(engine instanceof RicochetEngine ricochet) || !ricochet.config().tuning().enabled()) {
            return null;
        }
        Map<Integer, String> lines = new LinkedHashMap<>();
        int stagger = ricochet.config().stagger();
        for (GroupTuning g : ricochet.tuning()) {
            String lec = Double.isNaN(g.lecShare()) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * g.lecShare());
            String seen = Double.isNaN(g.lossRate()) ? ""
                    : String.format(Locale.ROOT, " (loss %.3f %%, LEC %s, %s evidence)", 100 * g.lossRate(), lec,
                            g.ownEvidence() ? "group's" : "node's");
            lines.put(g.group(), new RateOfFireLine(g.r(), g.c(), stagger, g.reason().description() + seen + "; r: "
                    + ricochet.rateOfFireRLimit().description()).text());
        }
        return lines;
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

    /**
     * The periodic log line: the nonzero counters and buffers, the recovery latency percentiles measured so far and
     * each GMS link, in a few hundred bytes (the histograms stay in the stats; {@code ricochet stats} shows all).
     */
    static String logLine(NodeStats s) {
        StringBuilder line = new StringBuilder("node ").append(s.node()).append(" (").append(s.protocol())
                .append(") counters: ").append(nonZero(s.counters()));
        line.append("; buffers: ").append(nonZero(s.buffers()));
        NodeStats.Latencies l = s.daemon();
        if (l != null) {
            StringBuilder measured = new StringBuilder();
            latency(measured, "lec", l.lecRecoveryLatencyMs());
            latency(measured, "nak", l.nakRecoveryLatencyMs());
            latency(measured, "discovery", l.discoveryLatencyMs());
            latency(measured, "after discovery", l.recoveryAfterDiscoveryMs());
            if (!measured.isEmpty()) {
                line.append("; recovery ms p50/p99 (count):").append(measured);
            }
        }
        if (s.gms() != null && !s.gms().isEmpty()) {
            line.append("; gms:");
            s.gms().forEach((partition, link) -> line.append(" p").append(partition)
                    .append(link.up() ? " up" : " down").append(" term ").append(link.term()));
        }
        return line.toString();
    }

    /** The entries of {@code values} that are not 0, in order. */
    static Map<String, Long> nonZero(Map<String, Long> values) {
        Map<String, Long> shown = new LinkedHashMap<>();
        if (values != null) {
            values.forEach((name, value) -> {
                if (value != 0) {
                    shown.put(name, value);
                }
            });
        }
        return shown;
    }

    private static void latency(StringBuilder line, String label, LatencyStats.Summary s) {
        if (s != null && s.count() > 0) {
            line.append(' ').append(label).append(' ').append(s.p50()).append('/').append(s.p99())
                    .append(" (").append(s.count()).append(')');
        }
    }
}
