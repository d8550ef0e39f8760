package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The replay window against a reference model, its edge, its bound, freshness on an injected clock, threads. */
class ReplayFilterTest {
    private static final long SEED = 20_261_124L;
    private static final long NOW_MS = 1_780_000_000_000L;
    private static final int TYPE = 1;

    private final AtomicLong nowMs = new AtomicLong(NOW_MS);

    private static long counter(long ms, int n) {
        return (ms << DatagramClock.MS_SHIFT) + n;
    }

    /** The specification: the window largest counters taken, and the largest one pushed out. */
    private static final class Model {
        final int window;
        final TreeSet<Long> kept = new TreeSet<>();
        long floor = Long.MIN_VALUE;

        Model(int window) {
            this.window = window;
        }

        int check(long c) {
            if (c <= floor || kept.contains(c)) {
                return DatagramAuth.REPLAYED;
            }
            kept.add(c);
            if (kept.size() > window) {
                floor = kept.pollFirst();
            }
            return 0;
        }
    }

    @Test
    void shouldAgreeWithTheReferenceSetOnShuffledCountersAndDuplicates() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int window : new int[] {2, 8, 64, 1024}) {
            ReplayFilter filter = new ReplayFilter(30_000, nowMs::get, window, 16);
            Model model = new Model(window);
            // Sparse counters, as a sender's are: some in the same ms, some after idle ms.
            List<Long> sent = new ArrayList<>();
            long c = counter(NOW_MS - 10_000, 0);
            for (int i = 0; i < 20_000; i++) {
                c += random.nextInt(4) == 0 ? 1 + random.nextInt(3) << DatagramClock.MS_SHIFT : 1 + random.nextInt(3);
                sent.add(c);
            }
            for (int i = 0; i < 60_000; i++) {
                // Arrival: mostly in order, sometimes late by up to 2 windows, sometimes a duplicate of the past.
                int at = Math.min(sent.size() - 1, i / 3);
                int back = random.nextInt(8) == 0 ? random.nextInt(Math.min(at, 2 * window) + 1) : 0;
                long arriving = sent.get(at - back);
                assertEquals(model.check(arriving), filter.check(7, TYPE, arriving),
                        "window " + window + " step " + i + " (seed " + SEED + ")");
            }
        }
    }

    @Test
    void shouldTakeAnOvertakenCounterUntilTheWindowIsFullOfNewerOnes() {
        int window = 8;
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get, window, 4);
        long late = counter(NOW_MS, 0);
        for (int i = 1; i <= window; i++) {
            assertEquals(0, filter.check(3, TYPE, counter(NOW_MS + i, 0)), "overtaking " + i);
        }
        assertEquals(0, filter.check(3, TYPE, late), "overtaken by exactly a window of newer ones: taken");
        assertEquals(DatagramAuth.REPLAYED, filter.check(3, TYPE, late), "but only once");

        ReplayFilter other = new ReplayFilter(30_000, nowMs::get, window, 4);
        for (int i = 1; i <= window + 1; i++) {
            assertEquals(0, other.check(3, TYPE, counter(NOW_MS + i, 0)));
        }
        assertEquals(DatagramAuth.REPLAYED, other.check(3, TYPE, late),
                "overtaken by more than a window: cannot be told from a replay");
        assertEquals(0, other.check(3, TYPE, counter(NOW_MS + 1000, 0)));
    }

    @Test
    void shouldKeepSourcesAndFrameTypesApart() {
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get);
        long c = counter(NOW_MS, 5);
        assertEquals(0, filter.check(1, TYPE, c));
        assertEquals(0, filter.check(2, TYPE, c), "another source");
        assertEquals(0, filter.check(1, TYPE + 1, c), "another frame type of the same source id");
        assertEquals(0, filter.check(-1, TYPE, c), "negative ids are ids too");
        assertEquals(DatagramAuth.REPLAYED, filter.check(1, TYPE, c));
        assertEquals(DatagramAuth.REPLAYED, filter.check(-1, TYPE, c));
        assertEquals(4, filter.windows());
    }

    @Test
    void shouldBoundTheTableAndEvictTheLeastRecentlyUsed() {
        int max = 16;
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get, 4, max);
        long c = counter(NOW_MS, 0);
        for (int source = 0; source < max; source++) {
            assertEquals(0, filter.check(source, TYPE, c));
        }
        assertEquals(max, filter.windows());
        // Source 0 is used again, so source 1 is now the least recently used.
        assertEquals(DatagramAuth.REPLAYED, filter.check(0, TYPE, c));
        assertEquals(0, filter.check(1_000, TYPE, c), "a new source evicts one");
        assertEquals(max, filter.windows(), "never more than the bound");
        assertEquals(DatagramAuth.REPLAYED, filter.check(0, TYPE, c), "source 0 was kept");
        assertEquals(0, filter.check(1, TYPE, c), "source 1 was evicted, and starts again empty");
        // Many more sources than the bound, in a seeded order: the bound holds and the table stays consistent.
        SplittableRandom random = new SplittableRandom(SEED);
        List<Integer> recent = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            int source = random.nextInt(200);
            long counter = counter(NOW_MS, i + 1);
            assertEquals(0, filter.check(source, TYPE, counter), "step " + i);
            assertEquals(DatagramAuth.REPLAYED, filter.check(source, TYPE, counter), "step " + i);
            recent.add(source);
            assertTrue(filter.windows() <= max);
        }
        // The most recently used sources are all still there: their last counters are refused.
        List<Integer> last = recent.subList(recent.size() - 4, recent.size());
        for (int i = 0; i < last.size(); i++) {
            int step = recent.size() - last.size() + i;
            assertEquals(DatagramAuth.REPLAYED, filter.check(last.get(i), TYPE, counter(NOW_MS, step + 1)));
        }
    }

    /**
     * A sender in 64 groups, each read from a socket of its own in turns of 64 datagrams: a datagram is overtaken by
     * up to 63 x 64 of the sender's later counters (more than a source's window), but never within its group.
     */
    @Test
    void shouldTakeEveryGroupsStreamReadFromSocketsInTurnsAndRefuseEachReplay() {
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get);
        int groups = 64;
        int turn = 64;
        int perGroup = 4 * turn;
        long[][] sent = new long[groups][perGroup];
        long c = counter(NOW_MS, 0);
        for (int i = 0; i < perGroup; i++) {
            for (int g = 0; g < groups; g++) {
                sent[g][i] = ++c;
            }
        }
        for (int from = 0; from < perGroup; from += turn) {
            for (int g = 0; g < groups; g++) {
                for (int i = from; i < from + turn; i++) {
                    assertEquals(0, filter.checkStream(5, TYPE, g, sent[g][i]), "group " + g + " #" + i);
                }
            }
        }
        SplittableRandom random = new SplittableRandom(SEED);
        for (int k = 0; k < 1_000; k++) {
            int g = random.nextInt(groups);
            long replayed = sent[g][random.nextInt(perGroup)];
            assertEquals(DatagramAuth.REPLAYED, filter.checkStream(5, TYPE, g, replayed), "replayed to group " + g);
        }
        assertEquals(groups, filter.windows());

        ReplayFilter oneWindow = new ReplayFilter(30_000, nowMs::get);
        int refused = 0;
        for (int from = 0; from < perGroup; from += turn) {
            for (int g = 0; g < groups; g++) {
                for (int i = from; i < from + turn; i++) {
                    refused += oneWindow.check(5, TYPE, sent[g][i]) == 0 ? 0 : 1;
                }
            }
        }
        assertTrue(refused > 0, "the same arrivals in one window per (source, type) lose genuine datagrams");
    }

    @Test
    void shouldKeepStreamsApartFromEachOtherAndFromTheirSourcesFrameTypes() {
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get);
        long c = counter(NOW_MS, 9);
        assertEquals(0, filter.checkStream(1, TYPE, 10, c));
        assertEquals(0, filter.checkStream(1, TYPE, 11, c), "another group");
        assertEquals(0, filter.checkStream(2, TYPE, 10, c), "another source");
        assertEquals(0, filter.check(1, TYPE, c), "the source's frame-type window is another window");
        assertEquals(DatagramAuth.REPLAYED, filter.checkStream(1, TYPE, 10, c));
        assertEquals(DatagramAuth.REPLAYED, filter.check(1, TYPE, c));
        assertEquals(4, filter.windows());
    }

    @Test
    void shouldReuseAnEvictedWindowOfTheOtherKindWithItsOwnLength() {
        int window = 16;
        int streamWindow = 4;
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get, window, streamWindow, 1);
        for (int round = 0; round < 3; round++) {
            // A frame type's window takes window counters in any order, a stream's only streamWindow.
            long base = counter(NOW_MS + round * 100, 0);
            for (int i = window; i >= 1; i--) {
                assertEquals(0, filter.check(1, TYPE, base + i), "round " + round);
            }
            assertEquals(DatagramAuth.REPLAYED, filter.check(1, TYPE, base + 1));
            for (int i = 1; i <= streamWindow + 1; i++) {
                assertEquals(0, filter.checkStream(1, TYPE, 3, base + 1000 + i), "round " + round);
            }
            assertEquals(DatagramAuth.REPLAYED, filter.checkStream(1, TYPE, 3, base + 1000 + 1),
                    "pushed out of a stream's shorter window");
            assertEquals(1, filter.windows());
        }
    }

    @Test
    void shouldRefuseStaleCountersWithoutRecordingThem() {
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get);
        long old = counter(NOW_MS - 30_001, 0);
        long ahead = counter(NOW_MS + 30_001, 0);
        assertEquals(DatagramAuth.STALE, filter.check(1, TYPE, old));
        assertEquals(DatagramAuth.STALE, filter.check(1, TYPE, ahead));
        assertEquals(0, filter.check(1, TYPE, counter(NOW_MS - 30_000, 0)), "at the edge: fresh");
        assertEquals(0, filter.check(1, TYPE, counter(NOW_MS + 30_000, 0)), "at the edge: fresh");
        nowMs.addAndGet(30_002);
        assertEquals(0, filter.check(1, TYPE, ahead), "the clock caught up: now fresh, and the stale try "
                + "left no trace");
        nowMs.addAndGet(30_000);
        assertEquals(DatagramAuth.STALE, filter.check(1, TYPE, ahead), "and then too old");
    }

    @Test
    void shouldTakeEachCounterOnceAcrossThreads() throws InterruptedException {
        ReplayFilter filter = new ReplayFilter(30_000, nowMs::get);
        int threads = 4;
        int perThread = 20_000;
        AtomicLong taken = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            // Every thread offers the same counters of two sources: each must be taken exactly once in all.
            workers.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    if (filter.check(i % 2, TYPE, counter(NOW_MS, i)) == 0) {
                        taken.incrementAndGet();
                    }
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread worker : workers) {
            worker.join();
        }
        // Threads run at different speeds, so a counter may be overtaken by more than a window: refused, never
        // taken twice.
        assertTrue(taken.get() <= perThread, taken + " taken");
        assertTrue(taken.get() >= ReplayFilter.DEFAULT_WINDOW, taken + " taken");
    }
}
