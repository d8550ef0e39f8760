package io.ricochet.workload;

import java.util.function.LongSupplier;

/**
 * How long a workload node keeps receiving after its last send: until no delivery has come for the settle time, and
 * at most {@code cap} settle times. Each node sends on its own clock, so on a starved host another node's last
 * sends may come seconds after this node's; a fixed wait from this node's own last send counted their tail missing
 * while it was still on its way. A message never delivered still shows: deliveries stop, the wait ends, and the
 * message is missing (or LOST).
 */
final class SettleWait {
    /** Sleeps up to the given nanoseconds. */
    interface Sleeper {
        void sleep(long ns) throws InterruptedException;
    }

    private final long quietNs;
    private final int cap;
    private final long pollNs;

    /**
     * @param quietNs how long deliveries must stop before the wait ends (0: no wait)
     * @param cap     the wait ends at most this many {@code quietNs} after it began
     * @param pollNs  how often the delivery count is read
     */
    SettleWait(long quietNs, int cap, long pollNs) {
        this.quietNs = quietNs;
        this.cap = cap;
        this.pollNs = pollNs;
    }

    /**
     * Waits; {@code everyPoll} runs after each look at the count (progress lines). Returns the nanoseconds waited.
     */
    long await(LongSupplier clock, LongSupplier delivered, Sleeper sleeper, Runnable everyPoll)
            throws InterruptedException {
        long startNs = clock.getAsLong();
        long capNs = startNs + cap * quietNs;
        long lastDeliveryNs = startNs;
        long count = delivered.getAsLong();
        while (true) {
            long now = clock.getAsLong();
            long endNs = Math.min(lastDeliveryNs + quietNs, capNs);
            if (now >= endNs) {
                return now - startNs;
            }
            sleeper.sleep(Math.min(endNs - now, pollNs));
            long seen = delivered.getAsLong();
            if (seen != count) {
                count = seen;
                lastDeliveryNs = clock.getAsLong();
            }
            everyPoll.run();
        }
    }
}
