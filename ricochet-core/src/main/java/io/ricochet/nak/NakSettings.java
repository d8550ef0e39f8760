package io.ricochet.nak;

/**
 * The receiver side's settings of the NAK layer, as a protocol's validated config gives them.
 *
 * @param nakEnabled       whether NAKs are sent at all; off, a loss is given up after {@code giveUpNs}
 * @param nakTimeoutNs     delay from discovery to the first NAK (paper: 100 ms)
 * @param retryNs          delay between NAKs for one loss (paper: 50 ms)
 * @param maxAttempts      NAKs sent for one loss before it is given up
 * @param giveUpNs         with NAK off: delay from discovery after which an unrecovered loss is given up
 * @param maxPendingLosses losses tracked at once; beyond it a new loss is given up at once
 * @param rateLimit        NAKs this node may send per second on average; 0 = unlimited
 */
public record NakSettings(boolean nakEnabled, long nakTimeoutNs, long retryNs, int maxAttempts, long giveUpNs,
                          int maxPendingLosses, int rateLimit) {

    /**
     * How long after its discovery an unanswered loss is given up when every timer runs on time: the first delay,
     * then the wait after each NAK with {@link LossTracker}'s backoff. A sender keeps its packets at least this long.
     */
    /**
     * How long the stream of a sender that left or failed is kept before it is pruned: twice the give-up time, so its
     * tail is still discovered and every loss of it given up and reported first.
     */
    public long departedStreamNs() {
        return 2 * giveUpAfterNs();
    }

    public long giveUpAfterNs() {
        if (!nakEnabled) {
            return giveUpNs;
        }
        long total = nakTimeoutNs;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            total += retryNs << Math.min(attempt - 1, LossTracker.MAX_BACKOFF_DOUBLINGS);
        }
        return total;
    }
}
