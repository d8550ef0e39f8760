package io.ricochet.bench.load;

/**
 * The sink's running totals, rewritten once a second to its progress file so a script can read them before and
 * after a measurement window.
 *
 * @param epochMillis          when the totals were taken
 * @param elapsedSeconds       seconds since the joins
 * @param delivered            packets delivered so far
 * @param lost                 loss notices so far
 * @param duplicates           duplicate ids so far
 * @param overflowedDeliveries deliveries the daemon dropped for this slow client so far
 */
public record SinkProgress(long epochMillis, double elapsedSeconds, long delivered, long lost, long duplicates,
                           long overflowedDeliveries) {
}
