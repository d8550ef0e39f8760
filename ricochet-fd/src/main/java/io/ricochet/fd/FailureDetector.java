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
 * sequence number, and closes at the next tick, at least one interval later. Every ack that answers a ping of this
 * run (its sequence and echoed send time match a round sent, among the last {@value #ROUNDS_REMEMBERED}) and is
 * newer than the member's previous ack is a heartbeat <em>arrival</em>, however late it is: a busy member is still
 * alive. A member <em>misses</em> a round when no arrival happened while the round was open. The suspicion rule
 * (phi-accrual, see {@link PhiAccrual}):
 * <ul>
 *   <li>a member is FAILED at a tick when it has missed at least {@code miss} rounds in a row <em>and</em> its phi
 *       (how improbable its silence is, given its own history of inter-arrival times) is at least the threshold;
 *       a member never heard from has no history and is failed on the {@code miss} rule alone. The listener hears
 *       {@link TransitionListener#failed} once, and never again while it stays failed;</li>
 *   <li>the first arrival from a failed member makes it alive again: {@link TransitionListener#recovered};</li>
 *   <li>a tick that runs more than two intervals after the previous one means the detector itself was starved (of
 *       CPU, say) and could not read acks: at that tick nobody is failed and no round counts as missed
 *       ({@link #lateTicks()}).</li>
 * </ul>
 * The verdict is thus a pure function of the ticks and acks seen, and of their times: the simulator can run it too
 * (STYLE.md, item 13).
 *
 * <p>The members may change at any time ({@link #setMembers}): a member kept keeps its history and state (and takes
 * its new address, if it has one); a member added starts with no history, as a member never heard from, and is
 * judged on the rounds from the next one on (its first ping); a member removed is forgotten, without a verdict.
 * Members may be added with their first answer to be reported ({@link #setMembers(Map, boolean)}): a member taken
 * over from another detector, which may have reported it failed, is then told alive at once
 * ({@link TransitionListener#firstAnswer}); the members given to the constructor never are.
 *
 * <p>Not thread-safe: one thread (the driver's event loop) owns it.
 *
 * @param <A> what the driver attaches to each member and gets back in every {@link Ping}: typically its address
 */
public final class FailureDetector<A> {
    /** Rounds whose send times are kept to check late acks: 102 s of history at the default 100 ms interval. */
    static final int ROUNDS_REMEMBERED = 1024;

    private int[] ids;
    private List<MemberState<A>> members;
    private final long intervalNs;
    private final int miss;
    private final PhiParameters phi;
    private final TransitionListener<A> listener;
    private final RoundLog rounds = new RoundLog(ROUNDS_REMEMBERED);
    private boolean started;
    private long lastTickNs;
    private long nextTickNs;
    private long sequence;
    private int failedCount;
    private long lateTicks;

    /** A detector with {@link PhiParameters#DEFAULTS}. */
    public FailureDetector(Map<Integer, A> members, long intervalNs, int miss, TransitionListener<A> listener) {
        this(members, intervalNs, miss, PhiParameters.DEFAULTS, listener);
    }

    /**
     * @param members member id to address; the ids are what HEARTBEAT_ACKs carry as their source
     * @param intervalNs time between rounds, {@code > 0}
     * @param miss the least number of consecutive missed rounds before a member can be failed, {@code >= 1}
     * @param phi the phi threshold and the shape of the expected silence
     * @param listener told of every transition
     */
    public FailureDetector(Map<Integer, A> members, long intervalNs, int miss, PhiParameters phi,
                           TransitionListener<A> listener) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("intervalNs must be positive: " + intervalNs);
        }
        if (miss < 1) {
            throw new IllegalArgumentException("miss must be at least 1: " + miss);
        }
        this.intervalNs = intervalNs;
        this.miss = miss;
        this.phi = Objects.requireNonNull(phi, "phi");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.ids = new int[0];
        this.members = new ArrayList<>();
        setMembers(members);
    }

    /** {@link #setMembers(Map, boolean)}, the members added reporting nothing on their first answer. */
    public Change setMembers(Map<Integer, A> newMembers) {
        return setMembers(newMembers, false);
    }

    /**
     * Makes {@code newMembers} the members, from the next tick on. A member kept keeps its heartbeat history and
     * its state (failed or not, rounds missed); if its address changed, its pings go to the new one. A member added
     * starts as one never heard from: its first ping goes out at the next tick, the rounds from then on are the
     * ones it may miss (so it is failed at the {@code miss}th tick after that one if it never answers), and an ack
     * of an earlier round (sent to it while it was a member before) is not taken. A member removed is forgotten:
     * no verdict, and its acks are from then on those of an unknown member.
     *
     * <p>With {@code reportFirstAnswer}, the first answer of each member added is reported
     * ({@link TransitionListener#firstAnswer}), unless the member is failed first (then its answer is a recovery, as
     * always). For members taken over from another detector: it may have reported them failed, and their new
     * detector's first answer is what tells the GMS they are alive. A member kept is unaffected.
     *
     * @param newMembers member id to address
     * @param reportFirstAnswer whether the members added report their first answer
     * @return the ids added, removed and given a new address
     */
    public Change setMembers(Map<Integer, A> newMembers, boolean reportFirstAnswer) {
        int[] newIds = newMembers.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        List<MemberState<A>> next = new ArrayList<>(newIds.length);
        List<Integer> added = new ArrayList<>();
        List<Integer> readdressed = new ArrayList<>();
        for (int id : newIds) {
            A address = Objects.requireNonNull(newMembers.get(id), "address of " + id);
            int index = Arrays.binarySearch(ids, id);
            if (index >= 0) {
                MemberState<A> kept = members.get(index);
                if (!kept.address.equals(address)) {
                    kept.address = address;
                    readdressed.add(id);
                }
                next.add(kept);
            } else {
                MemberState<A> fresh = new MemberState<>(id, address,
                        new HeartbeatHistory(HeartbeatHistory.DEFAULT_CAPACITY, intervalNs), sequence + 1);
                fresh.reportFirstAnswer = reportFirstAnswer;
                next.add(fresh);
                added.add(id);
            }
        }
        List<Integer> removed = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            if (Arrays.binarySearch(newIds, ids[i]) < 0) {
                removed.add(ids[i]);
                if (members.get(i).failed) {
                    failedCount--;
                }
            }
        }
        ids = newIds;
        members = next;
        return new Change(added, removed, readdressed);
    }

    /**
     * Closes the open round and opens the next one, if a round is due at {@code nowNs} (the first call always is;
     * after that, {@link #nextTickNs()}). Reports the members whose silence has become improbable as failed, unless
     * this tick is late.
     *
     * @return the heartbeats to send now, one per member; empty if no round was due
     */
    public List<Ping<A>> onTick(long nowNs) {
        if (started && nextTickNs - nowNs > 0) {
            return List.of();
        }
        if (started) {
            // nowNs - lastTickNs >= intervalNs here; subtracting keeps the comparison wrap-safe.
            if (nowNs - lastTickNs - intervalNs > intervalNs) {
                skipRound();
            } else {
                closeRound(nowNs);
            }
        }
        started = true;
        sequence++;
        rounds.record(sequence, nowNs);
        lastTickNs = nowNs;
        nextTickNs = nowNs + intervalNs;
        List<Ping<A>> pings = new ArrayList<>(members.size());
        for (MemberState<A> m : members) {
            m.arrivedThisRound = false;
            pings.add(new Ping<>(m.id, m.address, sequence));
        }
        return pings;
    }

    /**
     * The detector was starved: the acks of the closing round may be sitting unread, so its silence proves nothing.
     * The silence since the last arrival spans the stall, so it is not recorded as an interval either.
     */
    private void skipRound() {
        lateTicks++;
        for (MemberState<A> m : members) {
            m.skipNextInterval = true;
        }
    }

    private void closeRound(long nowNs) {
        for (MemberState<A> m : members) {
            if (m.arrivedThisRound || m.firstSequence > sequence) {
                // Answered, or added while this round was open: it was not pinged in it.
                continue;
            }
            m.missed = Math.min(m.missed + 1, miss);
            if (!m.failed && m.missed == miss && suspected(m, nowNs)) {
                m.failed = true;
                // The outage is no sample of the member's rhythm: its recovery starts a fresh interval.
                m.skipNextInterval = true;
                failedCount++;
                listener.failed(m.id, m.address, nowNs);
            }
        }
    }

    private boolean suspected(MemberState<A> m, long nowNs) {
        // Never heard from: no rhythm to judge by, so the miss rule alone decides.
        return !m.heard || PhiAccrual.phi(Math.max(0, nowNs - m.lastArrivalNs), m.history, phi) >= phi.threshold();
    }

    /**
     * Takes one HEARTBEAT_ACK: its source {@code member}, its {@code sequence} and the send time it echoes. It is an
     * arrival if it answers a ping of this run newer than the member's previous arrival, whether for the open round
     * ({@link AckResult#ACCEPTED}) or an earlier one ({@link AckResult#LATE}); a failed member that sends it
     * recovers.
     *
     * @return what the ack was taken for; the driver counts the kinds
     */
    public AckResult onAck(int member, long sequence, long sendTimeNs, long nowNs) {
        int index = Arrays.binarySearch(ids, member);
        if (index < 0) {
            return AckResult.UNKNOWN_MEMBER;
        }
        if (!rounds.sentAt(sequence, sendTimeNs)) {
            return AckResult.UNKNOWN_SEQUENCE;
        }
        MemberState<A> m = members.get(index);
        if (sequence < m.firstSequence) {
            // A ping sent before it was (last) made a member: it starts with no history.
            return AckResult.UNKNOWN_SEQUENCE;
        }
        if (sequence <= m.lastAckedSequence) {
            return AckResult.DUPLICATE;
        }
        m.lastAckedSequence = sequence;
        arrive(m, nowNs);
        return sequence == this.sequence ? AckResult.ACCEPTED : AckResult.LATE;
    }

    private void arrive(MemberState<A> m, long nowNs) {
        if (m.heard && !m.skipNextInterval) {
            m.history.add(Math.max(0, nowNs - m.lastArrivalNs));
        }
        m.heard = true;
        m.skipNextInterval = false;
        m.lastArrivalNs = nowNs;
        m.arrivedThisRound = true;
        m.missed = 0;
        boolean firstAnswer = m.reportFirstAnswer;
        m.reportFirstAnswer = false;
        if (m.failed) {
            m.failed = false;
            failedCount--;
            listener.recovered(m.id, m.address, nowNs);
        } else if (firstAnswer) {
            listener.firstAnswer(m.id, m.address, nowNs);
        }
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

    /**
     * The suspicion level of {@code member} at {@code nowNs}: NaN for an unknown id or a member never heard from.
     * For logs and tests; verdicts are only taken at ticks.
     */
    public double phi(int member, long nowNs) {
        int index = Arrays.binarySearch(ids, member);
        if (index < 0 || !members.get(index).heard) {
            return Double.NaN;
        }
        MemberState<A> m = members.get(index);
        return PhiAccrual.phi(Math.max(0, nowNs - m.lastArrivalNs), m.history, phi);
    }

    /** Ticks that ran more than two intervals after the previous one, and so judged nobody. */
    public long lateTicks() {
        return lateTicks;
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

    public PhiParameters phiParameters() {
        return phi;
    }

    /** The members given by {@link #setMembers}, sorted by id. */
    public int[] memberIds() {
        return ids.clone();
    }

    /**
     * What {@link #setMembers} changed, each list in ascending id order.
     *
     * @param added ids that were not members
     * @param removed ids that are no longer members
     * @param readdressed ids kept with a new address
     */
    public record Change(List<Integer> added, List<Integer> removed, List<Integer> readdressed) {
        public Change {
            added = List.copyOf(added);
            removed = List.copyOf(removed);
            readdressed = List.copyOf(readdressed);
        }

        /** Whether nothing changed. */
        public boolean isEmpty() {
            return added.isEmpty() && removed.isEmpty() && readdressed.isEmpty();
        }
    }

    /** Per-member state; {@code missed} saturates at {@code miss}. */
    private static final class MemberState<A> {
        final int id;
        final HeartbeatHistory history;
        /** The first round it was pinged in (it became a member while the one before was open). */
        final long firstSequence;
        A address;
        boolean heard;
        long lastArrivalNs;
        long lastAckedSequence;
        boolean skipNextInterval;
        boolean arrivedThisRound;
        int missed;
        boolean failed;
        /** Added to report its first answer, and not heard from since. */
        boolean reportFirstAnswer;

        MemberState(int id, A address, HeartbeatHistory history, long firstSequence) {
            this.id = id;
            this.address = address;
            this.history = history;
            this.firstSequence = firstSequence;
        }
    }
}
