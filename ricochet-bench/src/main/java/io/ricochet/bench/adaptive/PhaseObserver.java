package io.ricochet.bench.adaptive;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.lec.tuning.GroupTuning;
import io.ricochet.lecnak.RicochetEngine;
import io.ricochet.sim.SimObserver;
import io.ricochet.sim.Simulator;
import io.ricochet.wire.FrameType;
import java.util.Arrays;
import org.agrona.collections.Long2LongHashMap;

/**
 * Watches one run and splits it by time: per phase of the loss schedule and per second, the data and repair packets
 * on the wire, the NAKs and retransmissions received (for SRM every frame of its own types: requests, repairs and
 * session messages), the losses recovered by LEC and
 * otherwise with their recovery latency (recovery time minus the time the packet would have arrived: its send time
 * plus the one-hop latency), and, once a second, the mean rate-of-fire c of the run's engines.
 */
final class PhaseObserver implements SimObserver {
    private final Simulator simulator;
    private final int nodes;
    private final long phaseNs;
    private final int phases;
    private final long binNs;
    private final long latencyNs;
    private final Long2LongHashMap sentNs = new Long2LongHashMap(-1);
    private final int[][] members;
    /** Per phase: counts, and every recovery latency (ms) for its percentiles. */
    final long[] data;
    final long[] repairs;
    final long[] control;
    final long[] lec;
    final long[] other;
    final double[][] latenciesMs;
    private final int[] latencyCount;
    /** Per second: data and repairs on the wire, LEC and other recoveries, mean c (NaN when not sampled). */
    final long[] binData;
    final long[] binRepairs;
    final long[] binLec;
    final long[] binOther;
    final double[] binC;
    /** Per second: the mean over nodes of the r in force (NaN when not sampled). */
    final double[] binR;
    private long nextSampleNs;

    PhaseObserver(Simulator simulator, int nodes, double phaseSeconds, int phases, double totalSeconds,
                  long latencyNs) {
        this.simulator = simulator;
        this.nodes = nodes;
        this.phaseNs = (long) (phaseSeconds * 1e9);
        this.phases = phases;
        this.binNs = 1_000_000_000L;
        this.latencyNs = latencyNs;
        this.members = simulator.workload().membersOfGroup();
        data = new long[phases];
        repairs = new long[phases];
        control = new long[phases];
        lec = new long[phases];
        other = new long[phases];
        latenciesMs = new double[phases][1024];
        latencyCount = new int[phases];
        int bins = (int) Math.ceil(totalSeconds);
        binData = new long[bins];
        binRepairs = new long[bins];
        binLec = new long[bins];
        binOther = new long[bins];
        binC = new double[bins];
        Arrays.fill(binC, Double.NaN);
        binR = new double[bins];
        Arrays.fill(binR, Double.NaN);
    }

    private static long key(int origin, int group, long seqno) {
        return ((long) origin << 52) | ((long) group << 36) | seqno;
    }

    /** The phase of the schedule at {@code nowNs}, or -1 past the measured time. */
    private int phase(long nowNs) {
        long p = nowNs / phaseNs;
        return p < phases ? (int) p : -1;
    }

    private int bin(long nowNs) {
        long b = nowNs / binNs;
        return b < binData.length ? (int) b : -1;
    }

    @Override
    public void sent(int origin, int group, long seqno, long nowNs) {
        sentNs.put(key(origin, group, seqno), nowNs);
        int receivers = members[group].length - 1;
        int p = phase(nowNs);
        if (p >= 0) {
            data[p] += receivers;
        }
        int b = bin(nowNs);
        if (b >= 0) {
            binData[b] += receivers;
        }
    }

    @Override
    public void received(int node, int type, long nowNs) {
        sample(nowNs);
        int p = phase(nowNs);
        int b = bin(nowNs);
        if (type == FrameType.DATA) {
            return;
        }
        if (FrameType.isProactiveRepair(type)) {
            if (p >= 0) {
                repairs[p]++;
            }
            if (b >= 0) {
                binRepairs[b]++;
            }
        } else if (p >= 0 && (type == FrameType.NAK || type == FrameType.RETRANSMIT
                || (type >= FrameType.SRM_FIRST && type <= FrameType.SRM_LAST))) {
            control[p]++;
        }
    }

    @Override
    public void delivered(int node, int origin, int group, long seqno, Delivery how, long nowNs) {
        if (how == Delivery.DIRECT) {
            return;
        }
        long sent = sentNs.get(key(origin, group, seqno));
        if (sent < 0) {
            return;
        }
        long arrivalNs = sent + latencyNs;
        boolean byLec = how == Delivery.LEC;
        int p = phase(arrivalNs);
        if (p >= 0) {
            if (byLec) {
                lec[p]++;
            } else {
                other[p]++;
            }
            if (latencyCount[p] == latenciesMs[p].length) {
                latenciesMs[p] = Arrays.copyOf(latenciesMs[p], latencyCount[p] * 2);
            }
            latenciesMs[p][latencyCount[p]++] = (nowNs - arrivalNs) / 1e6;
        }
        int b = bin(arrivalNs);
        if (b >= 0) {
            if (byLec) {
                binLec[b]++;
            } else {
                binOther[b]++;
            }
        }
    }

    /** Once a second: the mean over nodes and groups of the c in force, and over nodes of the r. */
    private void sample(long nowNs) {
        if (nowNs < nextSampleNs) {
            return;
        }
        int b = bin(nowNs);
        nextSampleNs = (nowNs / binNs + 1) * binNs;
        if (b < 0) {
            return;
        }
        double sum = 0;
        long count = 0;
        double rSum = 0;
        for (int n = 0; n < nodes; n++) {
            ProtocolEngine engine = simulator.engine(n);
            if (!(engine instanceof RicochetEngine ricochet)) {
                return;
            }
            rSum += ricochet.rateOfFireR();
            if (ricochet.tuning().isEmpty()) {
                sum += ricochet.config().defaultC();
                count++;
            }
            for (GroupTuning g : ricochet.tuning()) {
                sum += g.c();
                count++;
            }
        }
        binC[b] = count == 0 ? Double.NaN : sum / count;
        binR[b] = rSum / nodes;
    }

    /** The {@code q}-quantile (0..1) of phase {@code p}'s recovery latencies in ms; NaN if none. */
    double latencyMs(int p, double q) {
        int n = latencyCount[p];
        if (n == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(latenciesMs[p], n);
        Arrays.sort(sorted);
        return sorted[Math.min(n - 1, (int) Math.ceil(q * n) - 1 < 0 ? 0 : (int) Math.ceil(q * n) - 1)];
    }
}
