package io.ricochet.bench.overload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.load.RateSchedule;
import io.ricochet.bench.load.SinkSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimelineTest {
    /** Warm-up 1000/s for 2 s, overload 3000/s for 2 s, after 500/s for 3 s, per generator. */
    static final String SCHEDULE = "1000:2,3000:2,500:3";
    static final long T0 = 10_000;

    /** A generator following {@link #SCHEDULE} exactly from {@code start}, noted every 0.1 s. */
    static Generator generator(int node, long start) {
        RateSchedule schedule = RateSchedule.parse(SCHEDULE);
        List<long[]> progress = new ArrayList<>();
        for (long ms = 0; ms <= schedule.totalNanos() / 1_000_000; ms += 100) {
            progress.add(new long[] {start + ms, schedule.dueTotal(ms * 1_000_000)});
        }
        return new Generator(node, start, schedule, progress);
    }

    /**
     * Sink samples once a second from T0 for 9 s: each second's deliveries as given, the daemon receiving
     * 1.5 times what is delivered, 10 kernel drops, 3 NAKs, 50 ticks of CPU per second.
     */
    static List<SinkSample> samples(long... deliveredPerSecond) {
        List<SinkSample> samples = new ArrayList<>();
        long delivered = 0;
        for (int k = 0; k <= deliveredPerSecond.length; k++) {
            Map<String, Long> daemon = Map.of("DATA_RECEIVED", delivered * 3 / 2, "NAKS_SENT", 3L * k,
                    "RX_BUFFER_RANDOM_DROPS", 0L);
            samples.add(new SinkSample(T0 + 1000L * k, delivered, 7L * k, 0, daemon, 50L * k,
                    Map.of("RcvbufErrors", 10L * k)));
            if (k < deliveredPerSecond.length) {
                delivered += deliveredPerSecond[k];
            }
        }
        return samples;
    }

    @Test
    void shouldBinOfferedLoadAndCountersBetweenTheSinksSamples() {
        Timeline timeline = Timeline.of(samples(2000, 2000, 4000, 4000, 1000, 1000, 1000, 0, 0),
                List.of(generator(2, T0), generator(3, T0)), 100);
        assertEquals(T0 + 4000, timeline.fallEpochMillis(), 1e-9);
        assertEquals(0, timeline.startSkewSeconds(), 1e-9);
        List<TimelineBin> bins = timeline.bins();
        assertEquals(9, bins.size());
        assertEquals(List.of("warm-up", "warm-up", "overload", "overload", "after", "after", "after", "idle", "idle"),
                bins.stream().map(TimelineBin::phase).toList());
        double[] offered = {2000, 2000, 6000, 6000, 1000, 1000, 1000, 0, 0};
        for (int k = 0; k < bins.size(); k++) {
            TimelineBin b = bins.get(k);
            assertEquals(k - 4, b.t(), 1e-9, "time 0 is the fall");
            assertEquals(offered[k], b.offered(), 1e-6, "offered in second " + k);
            assertEquals(b.delivered() * 1.5, b.received(), 1e-6);
            assertEquals(7, b.lost(), 1e-9);
            assertEquals(10, b.kernelDrops(), 1e-9);
            assertEquals(3, b.naksSent(), 1e-9);
            assertEquals(0, b.rxRandomDrops(), 1e-9);
            assertEquals(50, b.daemonCpu(), 1e-9, "50 ticks of 1/100 s in one second");
        }
    }

    @Test
    void shouldPlaceTheFallAtTheLastGeneratorsFallAndMarkTheBlurredInterval() {
        Timeline timeline = Timeline.of(samples(2000, 2000, 4000, 4000, 1000, 1000, 1000, 0, 0),
                List.of(generator(2, T0), generator(3, T0 + 500)), 100);
        assertEquals(T0 + 4500, timeline.fallEpochMillis(), 1e-9);
        assertEquals(0.5, timeline.startSkewSeconds(), 1e-9);
        List<TimelineBin> bins = timeline.bins();
        assertEquals("change", bins.get(0).phase(), "one generator had not started");
        assertEquals("change", bins.get(4).phase(), "one generator still overloading");
        assertEquals("after", bins.get(5).phase());
        assertEquals(0.5, bins.get(5).t(), 1e-9);
        assertEquals(500 + 3000 / 2 + 500 / 2, bins.get(4).offered(), 1e-6, "one after, one half over, half after");
        assertEquals("change", bins.get(7).phase(), "one generator has stopped");
    }

    @Test
    void shouldLeaveWhatWasNotMeasuredOut() {
        List<SinkSample> samples = List.of(new SinkSample(T0, 0, 0, 0, Map.of(), -1, Map.of()),
                new SinkSample(T0 + 1000, 100, 0, 0, Map.of(), -1, Map.of()));
        TimelineBin bin = Timeline.of(samples, List.of(generator(2, T0)), 100).bins().get(0);
        assertEquals(100, bin.delivered(), 1e-9);
        assertTrue(Double.isNaN(bin.received()));
        assertTrue(Double.isNaN(bin.kernelDrops()));
        assertTrue(Double.isNaN(bin.daemonCpu()));
    }

    @Test
    void shouldRefuseSchedulesThatDoNotFit() {
        List<SinkSample> samples = samples(1, 1);
        Generator onePhase = new Generator(2, T0, RateSchedule.parse("100:5"), List.of());
        Generator twoPhases = new Generator(3, T0, RateSchedule.parse("100:5,10:5"), List.of());
        assertThrows(IllegalArgumentException.class, () -> Timeline.of(samples, List.of(onePhase), 100));
        assertThrows(IllegalArgumentException.class,
                () -> Timeline.of(samples, List.of(generator(2, T0), twoPhases), 100));
        assertThrows(IllegalArgumentException.class, () -> Timeline.of(samples, List.of(), 100));
        assertThrows(IllegalArgumentException.class,
                () -> Timeline.of(samples.subList(0, 1), List.of(generator(2, T0)), 100));
    }

    @Test
    void shouldInterpolateRunningTotalsBetweenReadings() {
        CumulativeSeries s = new CumulativeSeries(List.of(new long[] {1000, 0}, new long[] {2000, 100},
                new long[] {2000, 100}, new long[] {3000, 400}));
        assertEquals(0, s.at(500), 1e-9);
        assertEquals(50, s.at(1500), 1e-9);
        assertEquals(250, s.at(2500), 1e-9);
        assertEquals(400, s.at(9000), 1e-9);
        assertThrows(IllegalArgumentException.class,
                () -> new CumulativeSeries(List.of(new long[] {2000, 0}, new long[] {1000, 5})));
    }
}
