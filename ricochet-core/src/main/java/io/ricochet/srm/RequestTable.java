package io.ricochet.srm;

import io.ricochet.engine.Counters;
import io.ricochet.engine.PacketId;
import io.ricochet.nak.LossTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * SRM's request timers: one per discovered, unrecovered loss (Floyd et al., section III-A). A loss waits
 * uniform [C1·d, (C1+C2)·d], then its request goes out and the timer restarts doubled. Hearing another member's
 * request for the same packet backs the timer off the same way instead of sending (suppression); for half of each
 * new delay further requests are ignored, so one round of duplicates backs off only once. Every send or back-off
 * is a round; a timer that expires after {@code maxRequestRounds} rounds gives the loss up. The table is bounded
 * by {@code maxPendingRequests}.
 */
final class RequestTable implements LossTable {
    /** What the engine does when a request timer expires. */
    interface Handler {
        void sendRequest(PacketId id, long nowNs);

        void giveUp(PacketId id, long discoveredNs, long nowNs);
    }

    /** A loss waiting for a repair. */
    static final class Loss extends Deadline {
        final PacketId id;
        final long discoveredNs;
        int rounds;
        long ignoreUntilNs;

        Loss(PacketId id, long discoveredNs) {
            this.id = id;
            this.discoveredNs = discoveredNs;
            this.ignoreUntilNs = discoveredNs;
        }
    }

    private final SrmConfig config;
    private final RandomGenerator rng;
    private final Counters counters;
    private final Map<PacketId, Loss> pending = new HashMap<>();
    private final DeadlineHeap<Loss> timers = new DeadlineHeap<>();

    RequestTable(SrmConfig config, RandomGenerator rng, Counters counters) {
        this.config = config;
        this.rng = rng;
        this.counters = counters;
    }

    /** Registers a loss discovered at {@code nowNs} and arms its first request timer. */
    @Override
    public Outcome discover(PacketId id, long nowNs) {
        if (pending.containsKey(id)) {
            return Outcome.KNOWN;
        }
        if (pending.size() >= config.maxPendingRequests()) {
            return Outcome.FULL;
        }
        Loss loss = new Loss(id, nowNs);
        pending.put(id, loss);
        timers.schedule(loss, nowNs + config.requestDelayNs(rng, 0));
        return Outcome.NEW;
    }

    @Override
    public boolean isPending(PacketId id) {
        return pending.containsKey(id);
    }

    /** The packet arrived (or the engine gave it up): forget the loss. Returns whether it was pending. */
    boolean resolve(PacketId id) {
        Loss loss = pending.remove(id);
        if (loss == null) {
            return false;
        }
        timers.cancel(loss);
        return true;
    }

    /** Forgets every loss of the stream (origin, group), which restarted; returns them. */
    List<Loss> removeStream(int origin, int group) {
        List<Loss> removed = new ArrayList<>();
        for (Iterator<Loss> it = pending.values().iterator(); it.hasNext(); ) {
            Loss loss = it.next();
            if (loss.id.origin() == origin && loss.id.group() == group) {
                it.remove();
                timers.cancel(loss);
                removed.add(loss);
            }
        }
        removed.sort(Comparator.comparingLong(loss -> loss.id.seqno()));
        return removed;
    }

    /** Another member requested {@code id}: back off, unless inside the ignore window of the last back-off. */
    void onRequestHeard(PacketId id, long nowNs) {
        Loss loss = pending.get(id);
        if (loss != null && nowNs - loss.ignoreUntilNs >= 0) {
            counters.increment(SrmCounter.SRM_REQUESTS_SUPPRESSED);
            nextRound(loss, nowNs);
        }
    }

    /** Fires every timer due at {@code nowNs}. */
    void poll(long nowNs, Handler handler) {
        for (Loss loss = timers.pollDue(nowNs); loss != null; loss = timers.pollDue(nowNs)) {
            if (loss.rounds >= config.maxRequestRounds()) {
                pending.remove(loss.id);
                handler.giveUp(loss.id, loss.discoveredNs, nowNs);
            } else {
                nextRound(loss, nowNs);
                handler.sendRequest(loss.id, nowNs);
            }
        }
    }

    private void nextRound(Loss loss, long nowNs) {
        loss.rounds++;
        long delayNs = config.requestDelayNs(rng, loss.rounds);
        loss.ignoreUntilNs = nowNs + delayNs / 2;
        timers.schedule(loss, nowNs + delayNs);
    }

    long nextDeadlineNs() {
        return timers.nextDeadlineNs();
    }

    int size() {
        return pending.size();
    }
}
