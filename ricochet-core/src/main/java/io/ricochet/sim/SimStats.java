package io.ricochet.sim;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.StreamTable;
import io.ricochet.latency.RecoveryLatencies;
import io.ricochet.wire.FrameType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects a run's measurements from the simulator's vantage point, where every drop time is known exactly, and
 * checks every delivery: the payload must be what the sender sent, and no packet may reach a node twice.
 */
final class SimStats {
    private static final double HISTOGRAM_BIN_MS = 10;
    private static final int HISTOGRAM_BINS = 30;

    private final SimConfig config;
    private final Workload workload;
    private final List<Map<Long, BitSet>> deliveredByNode = new ArrayList<>();
    private final RecoveryLatencies latencies = new RecoveryLatencies(Integer.MAX_VALUE, false);
    private long dataPackets;
    private long dataArrivalsTotal;
    private long repairArrivalsTotal;
    private long controlArrivalsTotal;
    private long losses;
    private long corrupt;
    private long duplicates;

    private final Perturbation perturbation;

    SimStats(SimConfig config, Workload workload, Perturbation perturbation) {
        this.config = config;
        this.workload = workload;
        this.perturbation = perturbation;
        for (int i = 0; i < config.nodes(); i++) {
            deliveredByNode.add(new HashMap<>());
        }
    }

    private boolean measured(long arrivalNs) {
        return arrivalNs - config.latencyNs() < config.measuredNs();
    }

    /** A frame of {@code type} put on the wire towards {@code receivers} nodes. */
    void onWire(int type, int receivers, long nowNs) {
        if (type == FrameType.DATA) {
            dataArrivalsTotal += receivers;
            if (nowNs < config.measuredNs()) {
                dataPackets += receivers;
            }
        } else if (FrameType.isProactiveRepair(type)) {
            repairArrivalsTotal += receivers;
        } else {
            controlArrivalsTotal += receivers;
        }
    }

    void dropped(int receiver, PacketId id, long nowNs) {
        if (measured(nowNs)) {
            latencies.dropped(receiver, id, nowNs);
            losses++;
        }
    }

    void droppedControl() {
        // Repairs, NAKs and retransmissions dropped under --loss-scope all: visible in the engines' counters.
    }

    void discovered(int receiver, PacketId id, long nowNs) {
        latencies.discovered(receiver, id, nowNs);
    }

    void delivered(int receiver, int origin, int group, long seqno, byte[] data, int offset, int length,
                   Delivery how, long nowNs) {
        if (!Payloads.matches(data, offset, length, origin, group, seqno, config.payload())) {
            corrupt++;
        }
        BitSet seen = deliveredByNode.get(receiver)
                .computeIfAbsent(StreamTable.key(origin, group), k -> new BitSet());
        if (seqno > Integer.MAX_VALUE || seen.get((int) seqno)) {
            duplicates++;
        } else {
            seen.set((int) seqno);
        }
        latencies.recovered(receiver, new PacketId(origin, group, seqno), how, nowNs);
    }

    void lost(int receiver) {
        // Counted by the engines (UNRECOVERED); the run's unrecovered figure is measured losses never delivered.
    }

    SimResult result(ProtocolEngine[] engines, long events) {
        Counters total = new Counters(config.protocol().counters());
        for (ProtocolEngine engine : engines) {
            total.addAll(engine.counters());
        }
        long received = total.get(EngineCounter.DATA_RECEIVED);
        long xors = 0;
        for (ProtocolEngine engine : engines) {
            xors += engine.repairXors();
        }
        double trafficSeconds = config.seconds() + config.drainSeconds();
        long lec = latencies.lec().count();
        long nak = latencies.nak().count();
        long late = latencies.late().count();
        long fountain = latencies.fountain().count();
        long unrecovered = losses - lec - nak - late - fountain;
        return new SimResult(parameters(), dataPackets, losses, lec, nak, late, unrecovered,
                percent(lec, losses), percent(nak, losses), percent(unrecovered, losses),
                latencies.recovery().summary(), latencies.lec().summary(), latencies.nak().summary(),
                latencies.discovery().summary(),
                percent(repairArrivalsTotal, dataArrivalsTotal + repairArrivalsTotal),
                round(controlArrivalsTotal / (double) config.nodes() / trafficSeconds),
                received == 0 ? 0 : round((double) xors / received),
                corrupt, duplicates, events, histogram(), total.snapshot(), fountain,
                latencies.fountain().summary());
    }

    private List<SimResult.HistogramBin> histogram() {
        List<SimResult.HistogramBin> bins = new ArrayList<>();
        for (int i = 0; i < HISTOGRAM_BINS; i++) {
            double from = i * HISTOGRAM_BIN_MS;
            double to = from + HISTOGRAM_BIN_MS;
            bins.add(new SimResult.HistogramBin(from, to, latencies.lec().countBetweenMs(from, to),
                    latencies.nak().countBetweenMs(from, to)));
        }
        double from = HISTOGRAM_BINS * HISTOGRAM_BIN_MS;
        bins.add(new SimResult.HistogramBin(from, Double.POSITIVE_INFINITY, latencies.lec().countBetweenMs(from, 1e9),
                latencies.nak().countBetweenMs(from, 1e9)));
        return bins;
    }

    private Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("nodes", config.nodes());
        p.put("degree", config.degree());
        p.put("groupSize", config.groupSize());
        p.put("groups", workload.groups());
        if (config.membership() != null) {
            p.put("membership", "given");   // a grouping from --plan, not the seeded random one
        }
        p.put("protocol", config.protocol().name());
        p.putAll(new java.util.TreeMap<>(config.protocol().parameters()));
        p.put("loss", config.loss().toString());
        p.put("lossScope", config.lossScope().name().toLowerCase(java.util.Locale.ROOT));
        p.put("seconds", config.seconds());
        p.put("drainSeconds", config.drainSeconds());
        p.put("ratePerNode", config.ratePerNode());
        p.put("sendRatePerNode", round(workload.sendRatePerNode()));
        p.put("payload", config.payload());
        p.put("latencyUs", config.latencyNs() / 1000.0);
        p.put("seed", config.seed());
        if (perturbation != null) {     // only then, so runs without one keep their results byte for byte
            p.put("perturb", perturbation.toString());
            p.put("perturbBacklog", perturbation.backlog());
        }
        return p;
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : round(100.0 * part / whole);
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
