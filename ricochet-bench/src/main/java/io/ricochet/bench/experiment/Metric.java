package io.ricochet.bench.experiment;

import io.ricochet.latency.LatencyStats;
import io.ricochet.sim.SimResult;
import java.util.function.ToDoubleFunction;

/**
 * A number taken from one simulation run, as the paper's figures plot it (section 5: "the percentage of lost
 * packets recovered using LEC and the average latency of these recoveries"). A latency of a run with no recovery
 * of that kind is NaN: it is left out of the mean over seeds rather than counted as 0.
 */
public enum Metric {
    /** Losses recovered proactively: by LEC XORs (Ricochet) or by decoding (sender-based FEC). */
    LEC_PERCENT("LEC recovery %", "lec_recovery_pct", 2, SimResult::lecRecoveryPercent),
    /** Losses recovered in any way before the run ended (LEC or FEC, NAK, SRM repairs). */
    RECOVERED_PERCENT("recovered %", "recovered_pct", 2, r -> r.lecRecoveryPercent() + r.nakRecoveryPercent()),
    /** Mean latency of the LEC (or FEC) recoveries, in microseconds as the paper's axes. */
    LEC_LATENCY_US("avg LEC recovery latency (µs)", "lec_latency_us", 0, r -> micros(r.lecRecoveryLatencyMs())),
    /** Mean latency of every recovery, whatever recovered it, in milliseconds. */
    RECOVERY_LATENCY_MS("avg recovery latency (ms)", "recovery_latency_ms", 2, r -> millis(r.recoveryLatencyMs())),
    /** Proactive repair packets / (data + those), counted on the wire. */
    OVERHEAD_PERCENT("overhead %", "overhead_pct", 2, SimResult::overheadPercent),
    /** XOR operations into repair bins per data packet received (Figure 11, right). */
    XORS_PER_PACKET("XORs per data packet", "xors_per_packet", 3, SimResult::xorsPerDataPacket),
    /** Non-data, non-proactive packets (NAKs, retransmissions, sessions, SRM traffic) per node per second. */
    CONTROL_PER_NODE_SECOND("control msgs per node per s", "control_per_node_s", 1,
            SimResult::controlPerNodePerSecond),
    /** Data packets lost at receivers (the denominator of the percentages). */
    LOSSES("losses", "losses", 0, r -> r.losses());

    private final String label;
    private final String column;
    private final int digits;
    private final ToDoubleFunction<SimResult> extractor;

    Metric(String label, String column, int digits, ToDoubleFunction<SimResult> extractor) {
        this.label = label;
        this.column = column;
        this.digits = digits;
        this.extractor = extractor;
    }

    /** Axis and table label. */
    public String label() {
        return label;
    }

    /** CSV column stem (the CSV has {@code <stem>_mean} and {@code <stem>_sd}). */
    public String column() {
        return column;
    }

    /** Decimals shown in tables. */
    public int digits() {
        return digits;
    }

    public double of(SimResult result) {
        return extractor.applyAsDouble(result);
    }

    private static double micros(LatencyStats.Summary s) {
        return s.count() == 0 ? Double.NaN : s.mean() * 1000;
    }

    private static double millis(LatencyStats.Summary s) {
        return s.count() == 0 ? Double.NaN : s.mean();
    }
}
