package io.ricochet.fountain.layered;

/**
 * The sender's schedule, fixed in advance and known to every receiver (paper, section VII-A).
 *
 * <ul>
 *   <li>Rates: layer 0 and layer 1 send at the base rate, layer i at 2^(i-1) times it, so level i (layers 0..i,
 *       cumulative) receives 2^i times the base rate.</li>
 *   <li>Synchronisation points: SP number k (k = 1, 2, ...) falls at k * {@code spIntervalNs}. Its level is the
 *       largest j with 2^j dividing k (at most {@code layers - 2}): a receiver at level i may join layer i + 1 at
 *       an SP of level at least i. SPs for level i are thus 2^i intervals apart: the rarer the higher the level,
 *       as the paper asks ("inversely proportional to the layer bandwidth").</li>
 *   <li>Bursts: before every SP a bursting layer sends at twice its rate for {@code burstNs}, then is silent for
 *       {@code burstNs} up to the SP, so its mean rate is unchanged. The burst makes the queue a join would make
 *       (level i at twice its rate is level i + 1's rate); the silence lets it drain before the SP. The paper
 *       bursts "on each layer"; with {@code burstAllLayers} false only layers 0..(the SP's level) burst: they are
 *       the layers of every receiver that may join at that SP, and a receiver above that level, which may not,
 *       is spared a probe whose only effect on it would be losses.</li>
 * </ul>
 *
 * Each layer's packets are evenly spaced in "schedule time", which for a bursting layer runs at the real clock's
 * pace outside the burst window, twice its pace in the burst, and stops in the silence; {@link #realTime} maps
 * one to the other.
 */
public final class LayerSchedule {
    private final int layers;
    private final double basePacketsPerSecond;
    private final long spIntervalNs;
    private final long burstNs;
    private final boolean burstAllLayers;

    /**
     * @param layers               layers 0..layers-1, 2..30
     * @param basePacketsPerSecond rate of layers 0 and 1, &gt; 0
     * @param spIntervalNs         time between two SPs (the level-0 SPs), &gt; 0
     * @param burstNs              burst length (then as long a silence), 0 for none, at most a quarter of the
     *                             SP interval
     * @param burstAllLayers       every layer bursts before every SP (the paper's wording), or only layers up to
     *                             the SP's level
     */
    public LayerSchedule(int layers, double basePacketsPerSecond, long spIntervalNs, long burstNs,
                         boolean burstAllLayers) {
        if (layers < 2 || layers > 30) {
            throw new IllegalArgumentException("layers " + layers + ": must be in 2..30");
        }
        if (!(basePacketsPerSecond > 0) || Double.isInfinite(basePacketsPerSecond)) {
            throw new IllegalArgumentException("base rate " + basePacketsPerSecond + " packets/s: must be > 0");
        }
        if (spIntervalNs <= 0) {
            throw new IllegalArgumentException("SP interval " + spIntervalNs + " ns: must be > 0");
        }
        if (burstNs < 0 || burstNs > spIntervalNs / 4) {
            throw new IllegalArgumentException("burst " + burstNs + " ns: must be in 0..SP interval / 4 ("
                    + spIntervalNs / 4 + " ns)");
        }
        this.layers = layers;
        this.basePacketsPerSecond = basePacketsPerSecond;
        this.spIntervalNs = spIntervalNs;
        this.burstNs = burstNs;
        this.burstAllLayers = burstAllLayers;
    }

    public int layers() {
        return layers;
    }

    /** The highest subscription level: every layer. */
    public int topLevel() {
        return layers - 1;
    }

    public long spIntervalNs() {
        return spIntervalNs;
    }

    public long burstNs() {
        return burstNs;
    }

    /** Packets per second of {@code layer} outside bursts: B_0 = B_1 = base, B_i = 2^(i-1) base. */
    public double layerRate(int layer) {
        checkLayer(layer);
        return layer == 0 ? basePacketsPerSecond : basePacketsPerSecond * (1L << (layer - 1));
    }

    /** Packets per second a receiver at {@code level} gets (layers 0..level): 2^level base. */
    public double levelRate(int level) {
        checkLayer(level);
        return basePacketsPerSecond * (1L << level);
    }

    /**
     * The level a bottleneck of {@code packetsPerSecond} carries without a standing queue: the highest whose rate
     * fits, 0 if none does (level 0 is the floor a receiver cannot leave).
     */
    public int fairLevel(double packetsPerSecond) {
        int level = 0;
        while (level < topLevel() && levelRate(level + 1) <= packetsPerSecond) {
            level++;
        }
        return level;
    }

    /** The time of SP number {@code k} (k &ge; 1). */
    public long spTimeNs(long k) {
        return k * spIntervalNs;
    }

    /** The SPs passed by {@code timeNs}: SP k is passed at and after its time. */
    public long spsBefore(long timeNs) {
        return Math.floorDiv(timeNs, spIntervalNs);
    }

    /** SP k's level: receivers at this level or below may join the next layer right after it. */
    public int spLevel(long k) {
        if (k < 1) {
            throw new IllegalArgumentException("SP " + k + ": SPs are numbered from 1");
        }
        return Math.min(Long.numberOfTrailingZeros(k), layers - 2);
    }

    /** Whether {@code layer} bursts before SP {@code k}. */
    public boolean bursts(int layer, long k) {
        checkLayer(layer);
        return burstNs > 0 && (burstAllLayers || layer <= spLevel(k));
    }

    /** When {@code layer}'s packet {@code seqno} (from 0) is sent: schedule time (seqno + 1/2) / rate, mapped. */
    public long sendNs(int layer, long seqno) {
        return Math.round(realTime(layer, scheduleNs(layer, seqno)));
    }

    /** Whether {@code layer}'s packet {@code seqno} is sent in a burst. */
    public boolean inBurst(int layer, long seqno) {
        double at = scheduleNs(layer, seqno);
        double periodStart = Math.floor(at / spIntervalNs) * spIntervalNs;
        return bursts(layer, spAfter(periodStart)) && at >= periodStart + spIntervalNs - 2.0 * burstNs;
    }

    /** How many packets {@code layer} sends before SP {@code k} (those numbered below it). */
    public long packetsBeforeSp(int layer, long k) {
        long spNs = spTimeNs(k);
        long n = Math.max(0, (long) Math.ceil(spNs / (1e9 / layerRate(layer)) - 0.5));
        while (sendNs(layer, n) < spNs) {
            n++;
        }
        while (n > 0 && sendNs(layer, n - 1) >= spNs) {
            n--;
        }
        return n;
    }

    private double scheduleNs(int layer, long seqno) {
        return (seqno + 0.5) * 1e9 / layerRate(layer);
    }

    /**
     * The real time at which {@code layer} sends schedule time {@code scheduleNs}: equal, except in a burst window,
     * which a bursting layer covers at twice the pace (its 2 * burst of schedule time in the burst's real time).
     */
    private double realTime(int layer, double scheduleNs) {
        double periodStart = Math.floor(scheduleNs / spIntervalNs) * spIntervalNs;
        double windowStart = periodStart + spIntervalNs - 2.0 * burstNs;
        if (scheduleNs < windowStart || !bursts(layer, spAfter(periodStart))) {
            return scheduleNs;
        }
        return windowStart + (scheduleNs - windowStart) / 2;
    }

    /** The SP that ends the interval starting at {@code periodStartNs}. */
    private long spAfter(double periodStartNs) {
        return Math.round(periodStartNs / spIntervalNs) + 1;
    }

    private void checkLayer(int layer) {
        if (layer < 0 || layer >= layers) {
            throw new IllegalArgumentException("layer " + layer + ": must be in 0.." + (layers - 1));
        }
    }
}
