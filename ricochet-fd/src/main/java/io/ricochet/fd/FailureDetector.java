package io.ricochet.fd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The heartbeat failure detector as a sans-I/O state machine (see {@code docs/design/failure-detection.md}). It
 * has no clock, socket, thread or randomness: the driver passes the time in and sends what it is told to.
 *
 * <p>Time is cut into rounds by {@link #onTick}. A round opens at a tick, which pings every member with the round's
 * sequence number, and closes at the next tick, at least one interval later. A member <em>misses</em> a round when
 * no ack for that round's sequence arrived before the round closed. The suspicion rule:
 * <ul>
 *   <li>a member is FAILED once it has missed {@code miss} consecutive rounds; the listener hears
 *       {@link TransitionListener#failed} at the tick that closes the last of them, and never again while it stays
 *       failed;</li>
 *   <li>the first accepted ack of a failed member makes it alive again: {@link TransitionListener#recovered};</li>
 *   <li>an ack is accepted only if it answers the round that is open and is the first for that round; late,
 *       duplicate and unknown acks change nothing.</li>
 * </ul>
 * Every member starts alive, so one that never answers is reported failed at the {@code miss}-th tick after the
 * first. The verdict is thus a pure function of the ticks and acks seen, and of their times: the simulator can run
 * it too (STYLE.md, item 13).
 *
 * <p>Not thread-safe: one thread (the driver's event loop) owns it.
 *
 * @param <A> what the driver attaches to each member and gets back in every {@link Ping}: typically its address
 */
public final class FailureDetector<A> {
    private final int[] ids;
    private final List<MemberState<A>> members;
    private final long intervalNs;
    private final int miss;
    private final TransitionListener<A> listener;
    private boolean started;
    private long nextTickNs;
    private long sequence;
    private int failedCount;

    /**
     * @param members member id to address; the ids are what HEARTBEAT_ACKs carry as their source
     * @param intervalNs time between rounds, {@code > 0}
     * @param miss consecutive missed rounds that make a member failed, {@code >= 1}
     * @param listener told of every transition
     */
    public FailureDetector(Map<Integer, A> members, long intervalNs, int miss, TransitionListener<A> listener) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("intervalNs must be positive: " + intervalNs);
        }
        if (miss < 1) {
            throw new IllegalArgumentException("miss must be at least 1: " + miss);
        }
        this.intervalNs = intervalNs;
        this.miss = miss;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.ids = members.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        this.members = new ArrayList<>(ids.length);
        for (int id : ids) {
            this.members.add(new MemberState<>(id, Objects.requireNonNull(members.get(id), "address of " + id)));
        }
    }

    /**
     * Closes the open round and opens the next one, if a round is due at {@code nowNs} (the first call always is;
     * after that, {@link #nextTickNs()}). Reports the members that reach {@code miss} missed rounds as failed.
     *
     * @return the heartbeats to send now, one per member; empty if no round was due
     */
    public List<Ping<A>> onTick(long nowNs) {
        if (started && nextTickNs - nowNs > 0) {
            return List.of();
        }
        if (started) {
            closeRound(nowNs);
        }
        started = true;
        sequence++;
        nextTickNs = nowNs + intervalNs;
        List<Ping<A>> pings = new ArrayList<>(members.size());
        for (MemberState<A> m : members) {
            m.acked = false;
            pings.add(new Ping<>(m.id, m.address, sequence));
        }
        return pings;
    }

    private void closeRound(long nowNs) {
        for (MemberState<A> m : members) {
            if (m.acked) {
                continue;
            }
            m.missed = Math.min(m.missed + 1, miss);
            if (m.missed == miss && !m.failed) {
                m.failed = true;
                failedCount++;
                listener.failed(m.id, m.address, nowNs);
            }
        }
    }

    /**
     * Takes one HEARTBEAT_ACK: its source {@code member} and its {@code sequence}. Only the first ack for the open
     * round counts; a failed member that sends it recovers.
     *
     * @return what the ack was taken for; the driver may count the ignored kinds
     */
    public AckResult onAck(int member, long sequence, long nowNs) {
        int index = Arrays.binarySearch(ids, member);
        if (index < 0) {
            return AckResult.UNKNOWN_MEMBER;
        }
        if (sequence < 1 || sequence > this.sequence) {
            return AckResult.UNKNOWN_SEQUENCE;
        }
        if (sequence < this.sequence) {
            return AckResult.LATE;
        }
        MemberState<A> m = members.get(index);
        if (m.acked) {
            return AckResult.DUPLICATE;
        }
        m.acked = true;
        m.missed = 0;
        if (m.failed) {
            m.failed = false;
            failedCount--;
            listener.recovered(m.id, m.address, nowNs);
        }
        return AckResult.ACCEPTED;
    }

    /** When the next round is due; meaningful once {@link #onTick} has run (before that, any time is due). */
    public long nextTickNs() {
        return nextTickNs;
    }

    /** The sequence number of the open round; 0 before the first tick. */
    public long sequence() {
        return sequence;
    }

    /** Whether {@code member} is currently failed; false for an unknown id. */
    public boolean isFailed(int member) {
        int index = Arrays.binarySearch(ids, member);
        return index >= 0 && members.get(index).failed;
    }

    public int memberCount() {
        return ids.length;
    }

    public int failedCount() {
        return failedCount;
    }

    public long intervalNs() {
        return intervalNs;
    }

    /** Per-member state; {@code missed} saturates at {@code miss}. */
    private static final class MemberState<A> {
        final int id;
        final A address;
        boolean acked;
        int missed;
        boolean failed;

        MemberState(int id, A address) {
            this.id = id;
            this.address = address;
        }
    }
}
