package io.ricochet.bench.overload;

import io.ricochet.bench.load.SinkSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The overload experiment's timeline: one {@link TimelineBin} per interval between consecutive samples of the sink,
 * which reads its own totals, the daemon's counters, its CPU time and the kernel's counters at one instant. The
 * generators' packets sent are noted on their own clocks every 0.1 s and interpolated at the sink's instants (all
 * run on one host, so the wall clocks agree). Time 0 is when the load fell: the start of the last phase of the
 * generator that reached it last. The schedules must have the same number of phases, at least two: the last is
 * "after", the one before it "overload", any before those "warm-up".
 */
public final class Timeline {
    private final List<TimelineBin> bins;
    private final double fallEpochMillis;
    private final double startSkewSeconds;

    private Timeline(List<TimelineBin> bins, double fallEpochMillis, double startSkewSeconds) {
        this.bins = List.copyOf(bins);
        this.fallEpochMillis = fallEpochMillis;
        this.startSkewSeconds = startSkewSeconds;
    }

    /**
     * Builds the timeline.
     *
     * @param samples    the sink's samples, in time order
     * @param generators the load generators
     * @param clockTicks the kernel's clock ticks per second ({@code getconf CLK_TCK}), for the daemon's CPU time
     * @throws IllegalArgumentException if there is nothing to build from, or the schedules do not fit together
     */
    public static Timeline of(List<SinkSample> samples, List<Generator> generators, int clockTicks) {
        if (generators.isEmpty()) {
            throw new IllegalArgumentException("no load generator reports");
        }
        if (samples.size() < 2) {
            throw new IllegalArgumentException("the sink took fewer than two samples");
        }
        int phases = generators.get(0).schedule().phases().size();
        for (Generator g : generators) {
            if (g.schedule().phases().size() != phases) {
                throw new IllegalArgumentException("the generators' schedules have different numbers of phases");
            }
        }
        if (phases < 2) {
            throw new IllegalArgumentException("a schedule needs an overload phase and an after phase");
        }
        double[] latestStart = new double[phases];
        double[] earliestEnd = new double[phases];
        double firstStart = Double.MAX_VALUE;
        double lastStart = -Double.MAX_VALUE;
        for (int p = 0; p < phases; p++) {
            latestStart[p] = -Double.MAX_VALUE;
            earliestEnd[p] = Double.MAX_VALUE;
        }
        for (Generator g : generators) {
            for (int p = 0; p < phases; p++) {
                latestStart[p] = Math.max(latestStart[p], g.phaseStart(p));
                earliestEnd[p] = Math.min(earliestEnd[p], p + 1 < phases ? g.phaseStart(p + 1) : g.end());
            }
            firstStart = Math.min(firstStart, g.startEpochMillis());
            lastStart = Math.max(lastStart, g.startEpochMillis());
        }
        double fall = latestStart[phases - 1];
        List<CumulativeSeries> sent = generators.stream().map(g -> new CumulativeSeries(g.progress())).toList();
        double lastEnd = generators.stream().mapToDouble(Generator::end).max().orElseThrow();
        List<TimelineBin> bins = new ArrayList<>();
        for (int k = 0; k + 1 < samples.size(); k++) {
            SinkSample a = samples.get(k);
            SinkSample b = samples.get(k + 1);
            double seconds = (b.epochMillis() - a.epochMillis()) / 1000.0;
            if (seconds <= 0) {
                continue;
            }
            double offered = 0;
            for (CumulativeSeries s : sent) {
                offered += s.at(b.epochMillis()) - s.at(a.epochMillis());
            }
            String phase = phase(a.epochMillis(), b.epochMillis(), latestStart, earliestEnd, firstStart, lastEnd);
            bins.add(new TimelineBin((a.epochMillis() - fall) / 1000.0, seconds, phase, offered / seconds,
                    counterRate(a.daemonCounters(), b.daemonCounters(), "DATA_RECEIVED", seconds),
                    (b.delivered() - a.delivered()) / seconds, (b.lost() - a.lost()) / seconds,
                    counterRate(a.kernelUdp(), b.kernelUdp(), "RcvbufErrors", seconds),
                    counterRate(a.daemonCounters(), b.daemonCounters(), "RX_BUFFER_RANDOM_DROPS", seconds),
                    counterRate(a.daemonCounters(), b.daemonCounters(), "NAKS_SENT", seconds),
                    a.daemonCpuTicks() < 0 || b.daemonCpuTicks() < 0 ? Double.NaN
                            : 100.0 * (b.daemonCpuTicks() - a.daemonCpuTicks()) / clockTicks / seconds));
        }
        return new Timeline(bins, fall, (lastStart - firstStart) / 1000.0);
    }

    /** The phase every generator was in over [from, to), by the phase edges of the whole set. */
    private static String phase(double from, double to, double[] latestStart, double[] earliestEnd,
                                double firstStart, double lastEnd) {
        if (to <= firstStart || from >= lastEnd) {
            return "idle";
        }
        int phases = latestStart.length;
        for (int p = 0; p < phases; p++) {
            if (from >= latestStart[p] && to <= earliestEnd[p]) {
                return p == phases - 1 ? "after" : p == phases - 2 ? "overload" : "warm-up";
            }
        }
        return "change";
    }

    private static double counterRate(Map<String, Long> a, Map<String, Long> b, String name, double seconds) {
        Long before = a == null ? null : a.get(name);
        Long after = b == null ? null : b.get(name);
        return before == null || after == null ? Double.NaN : (after - before) / seconds;
    }

    public List<TimelineBin> bins() {
        return bins;
    }

    /** When the load fell, in epoch milliseconds: time 0 of the bins. */
    public double fallEpochMillis() {
        return fallEpochMillis;
    }

    /** How far apart the generators started, in seconds: the blur of every phase change. */
    public double startSkewSeconds() {
        return startSkewSeconds;
    }
}
