package io.ricochet.loss;

import java.util.List;

/**
 * A loss model that changes over time: a schedule of phases, each a model that rules for a number of seconds, the
 * last one for ever after. It is how the adaptive rate-of-fire experiment moves a network from quiet to bursty to
 * lossy and back ({@code docs/results/adaptive-lec/summary.md}).
 *
 * <p>Time is an argument: the schedule starts at the first packet considered ({@link #shouldDrop(long)}), so the
 * simulator and the daemon, whose clocks start anywhere, both run it from their first arrival. Only the model of the
 * current phase is consulted, once per packet; a phase's model keeps its state when it is left (a phase is not
 * revisited, the schedule only moves forward). Each phase's model has its own seed, drawn from the spec's.
 */
public final class PhasedLossModel implements LossModel {
    private final long[] endsNs;
    private final LossModel[] models;
    private long startNs;
    private boolean started;
    private long lastNs;
    private int phase;

    /**
     * @param durationsNs how long each phase lasts (the last one's is ignored: it lasts for ever)
     * @param models      the model of each phase, as many as durations
     */
    public PhasedLossModel(long[] durationsNs, List<LossModel> models) {
        if (durationsNs.length == 0 || durationsNs.length != models.size()) {
            throw new IllegalArgumentException("a phased loss model needs one duration per phase, at least one phase");
        }
        this.endsNs = new long[durationsNs.length];
        long end = 0;
        for (int i = 0; i < durationsNs.length; i++) {
            if (durationsNs[i] <= 0) {
                throw new IllegalArgumentException("phase " + (i + 1) + " lasts " + durationsNs[i] + " ns: must be "
                        + "positive");
            }
            end += durationsNs[i];
            endsNs[i] = end;
        }
        this.models = models.toArray(new LossModel[0]);
    }

    /** The phase (0-based) in force at {@code nowNs}; the schedule starts at the first packet considered. */
    public int phaseAt(long nowNs) {
        long sinceNs = started ? nowNs - startNs : 0;
        int p = phase;
        while (p < endsNs.length - 1 && sinceNs >= endsNs[p]) {
            p++;
        }
        return p;
    }

    @Override
    public boolean shouldDrop(long nowNs) {
        if (!started) {
            started = true;
            startNs = nowNs;
        }
        lastNs = nowNs;
        phase = phaseAt(nowNs);
        return models[phase].shouldDrop();
    }

    /** Without a time: the phase of the last packet considered. */
    @Override
    public boolean shouldDrop() {
        return shouldDrop(started ? lastNs : 0);
    }

    @Override
    public String toString() {
        return "PhasedLossModel[phases=" + models.length + "]";
    }
}
