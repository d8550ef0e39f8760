package io.ricochet.pbcast;

import java.util.random.RandomGenerator;

/**
 * One member's unsynchronized gossip rounds (paper, section 3 and Figure 4): the round number, the deadline of the
 * next round and the per-round budgets of solicitations and retransmissions. The phase is drawn at random when the
 * rounds first start, and kept: rounds fall on {@code anchor + k * period}. The rounds stop while there is nothing
 * to gossip or wait for, so an idle member sets no timer, and start again on the same phase. A late timer runs one
 * round, not a burst of missed ones.
 */
final class GossipRounds {
    private final long periodNs;
    private final int limitRequests;
    private final int limitRetrans;
    private boolean anchored;
    private long anchorNs;
    private boolean running;
    private long nextTickNs;
    private long round;
    private int requests;
    private int retransmits;

    GossipRounds(long periodNs, int limitRequests, int limitRetrans) {
        this.periodNs = periodNs;
        this.limitRequests = limitRequests;
        this.limitRetrans = limitRetrans;
    }

    /** Starts the rounds if they are stopped; the first start draws the phase from {@code rng}. */
    void ensureRunning(long nowNs, RandomGenerator rng) {
        if (running) {
            return;
        }
        if (!anchored) {
            anchored = true;
            anchorNs = nowNs + rng.nextLong(periodNs);
        }
        running = true;
        nextTickNs = nowNs + Math.floorMod(anchorNs - nowNs, periodNs);
    }

    void stop() {
        running = false;
    }

    boolean due(long nowNs) {
        return running && nextTickNs - nowNs <= 0;
    }

    /** Starts the next round at {@code nowNs}: increments the round number and resets the budgets. */
    long advance(long nowNs) {
        round++;
        requests = 0;
        retransmits = 0;
        nextTickNs = nowNs + Math.floorMod(anchorNs - nowNs, periodNs);
        if (nextTickNs == nowNs) {
            nextTickNs += periodNs;
        }
        return round;
    }

    /** The current round number; 0 before the first round. */
    long round() {
        return round;
    }

    /** True if {@code wireRound} (a digest's 32-bit round field) names the current round. */
    boolean isCurrent(int wireRound) {
        return (int) round == wireRound;
    }

    long nextDeadlineNs() {
        return running ? nextTickNs : Long.MAX_VALUE;
    }

    /** Takes one solicitation from this round's budget (limit-requests); false when it is spent. */
    boolean tryRequest() {
        if (requests >= limitRequests) {
            return false;
        }
        requests++;
        return true;
    }

    /** True while this round's retransmissions are below limit-retrans. */
    boolean mayRetransmit() {
        return retransmits < limitRetrans;
    }

    /** Counts a retransmission, unicast or multicast, against this round (Figures 4 and 5: retrans_count++). */
    void retransmitted() {
        retransmits++;
    }
}
