package io.ricochet.auth;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The counter every sealed datagram carries (docs/design/security.md, "Replays"): strictly increasing across all
 * threads of a process, and {@code max(previous + 1, wall-clock ms << 20)}, so that
 *
 * <ul>
 *   <li>its high bits ({@link #sentMs}) say when it was sent, which a receiver checks against its own clock;</li>
 *   <li>a restarted process starts above every value its previous run sent, as long as that run sent fewer than
 *       2<sup>20</sup> datagrams per millisecond on average and the wall clock did not step back across the
 *       restart.</li>
 * </ul>
 *
 * One instance per process ({@link #system()}) serves every guard of every source id the process seals under, so
 * two guards of one process never send the same value. Thread-safe; {@link #next()} allocates nothing.
 */
public final class DatagramClock {
    /** Bits below the milliseconds: a process may send 2^20 datagrams per millisecond before it runs ahead. */
    public static final int MS_SHIFT = 20;

    private static final DatagramClock SYSTEM = new DatagramClock(System::currentTimeMillis);

    private final LongSupplier wallClockMs;
    private final AtomicLong last = new AtomicLong();

    /** @param wallClockMs milliseconds since the epoch ({@code System::currentTimeMillis}, or a test's clock) */
    public DatagramClock(LongSupplier wallClockMs) {
        this.wallClockMs = wallClockMs;
    }

    /** The process's one clock, over {@link System#currentTimeMillis()}. */
    public static DatagramClock system() {
        return SYSTEM;
    }

    /** The next counter: greater than every value this clock returned before, on any thread. */
    public long next() {
        long floor = wallClockMs.getAsLong() << MS_SHIFT;
        while (true) {
            long previous = last.get();
            long next = Math.max(previous + 1, floor);
            if (last.compareAndSet(previous, next)) {
                return next;
            }
        }
    }

    /** The wall-clock time, in ms since the epoch, at which {@code counter} was taken (give or take its carry). */
    public static long sentMs(long counter) {
        return counter >>> MS_SHIFT;
    }
}
