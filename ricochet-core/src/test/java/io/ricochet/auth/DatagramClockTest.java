package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DatagramClockTest {
    @Test
    void shouldFollowTheWallClockAndStillIncreaseWithinAMillisecond() {
        AtomicLong nowMs = new AtomicLong(1_000);
        DatagramClock clock = new DatagramClock(nowMs::get);
        assertEquals(1_000L << 20, clock.next());
        assertEquals((1_000L << 20) + 1, clock.next(), "same ms: one more");
        nowMs.set(1_005);
        long c = clock.next();
        assertEquals(1_005L << 20, c, "a later ms: its own value");
        assertEquals(1_005, DatagramClock.sentMs(c));
        nowMs.set(900);
        assertEquals(c + 1, clock.next(), "the wall clock stepped back: still increasing");
    }

    @Test
    void shouldStartARestartedProcessAboveItsPreviousRun() {
        AtomicLong nowMs = new AtomicLong(5_000);
        DatagramClock first = new DatagramClock(nowMs::get);
        long last = 0;
        for (int i = 0; i < 100_000; i++) {
            last = first.next();
        }
        nowMs.incrementAndGet();
        assertTrue(new DatagramClock(nowMs::get).next() > last, "fewer than 2^20 per ms: the next run starts above");
    }

    @Test
    void shouldNeverRepeatAValueAcrossThreads() throws InterruptedException {
        DatagramClock clock = DatagramClock.system();
        int threads = 4;
        int perThread = 50_000;
        List<long[]> seen = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long[] values = new long[perThread];
            seen.add(values);
            workers.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    values[i] = clock.next();
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread worker : workers) {
            worker.join();
        }
        Set<Long> all = new HashSet<>();
        for (long[] values : seen) {
            for (int i = 0; i < values.length; i++) {
                assertTrue(i == 0 || values[i] > values[i - 1], "increasing on each thread");
                assertTrue(all.add(values[i]), "unique across threads");
            }
        }
    }
}
