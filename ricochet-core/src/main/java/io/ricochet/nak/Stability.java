package io.ricochet.nak;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The sender's record of what the members of each of its groups have resolved of its stream there (their
 * {@link io.ricochet.wire.FrameType#STABLE} reports). A packet every other member of its group has resolved will
 * never be asked for again, so the retransmit buffer may drop it before its retention time is up: the buffer then
 * follows the receivers, not a fixed time, and a sender is no longer limited to retransmit-buffer packets per
 * retention time. A member that has not reported holds every packet to its time, as before (a new member, one
 * whose reports are lost, one running without them).
 */
public final class Stability {
    private final int self;
    private final IntFunction<Set<Integer>> members;
    /**
     * Per group, per member: every seqno below [0] is resolved there, every one below [1] arrived or is known missing.
     */
    private final Map<Integer, Map<Integer, long[]>> reports = new HashMap<>();

    /** @param members the current members of a group as this node sees them (whether it lists itself or not) */
    public Stability(int self, IntFunction<Set<Integer>> members) {
        this.self = self;
        this.members = members;
    }

    /** {@code member} has resolved every packet of this node's stream in {@code group} below {@code seqno}. */
    public void reported(int group, int member, long seqno) {
        reported(group, member, seqno, seqno);
    }

    /**
     * {@code member} has resolved every packet of this node's stream in {@code group} below {@code seqno}, and every
     * one below {@code progress} has arrived there or is known missing.
     */
    public void reported(int group, int member, long seqno, long progress) {
        long[] report = reports.computeIfAbsent(group, g -> new HashMap<>()).computeIfAbsent(member, m -> new long[2]);
        report[0] = Math.max(report[0], seqno);
        report[1] = Math.max(report[1], Math.max(seqno, progress));
    }

    /** {@code member} is no longer in {@code group} (left or failed): its reports no longer count. */
    public void forget(int group, int member) {
        Map<Integer, long[]> byMember = reports.get(group);
        if (byMember != null) {
            byMember.remove(member);
            if (byMember.isEmpty()) {
                reports.remove(group);
            }
        }
    }

    /**
     * Whether every other current member of {@code group} has resolved this node's packet {@code seqno} there. Not
     * when this node knows no member of the group (it left it): the members it had may still ask.
     */
    public boolean isStable(int group, long seqno) {
        Set<Integer> current = members.apply(group);
        if (current.isEmpty()) {
            return false;
        }
        Map<Integer, long[]> byMember = reports.get(group);
        for (int member : current) {
            if (member == self) {
                continue;
            }
            long[] report = byMember == null ? null : byMember.get(member);
            if (report == null || seqno >= report[0]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every seqno of this node's stream in {@code group} below the returned one has arrived at every other current
     * member or is known missing there (their reports' progress): the least of them, 0 when one of them has not
     * reported, {@link Long#MAX_VALUE} when this node knows no other member (no one to wait for).
     */
    public long progressBelow(int group) {
        Map<Integer, long[]> byMember = reports.get(group);
        long least = Long.MAX_VALUE;
        for (int member : members.apply(group)) {
            if (member == self) {
                continue;
            }
            long[] report = byMember == null ? null : byMember.get(member);
            if (report == null) {
                return 0;
            }
            least = Math.min(least, report[1]);
        }
        return least;
    }

    /** Groups with reports held (for bounds checks and stats). */
    int groups() {
        return reports.size();
    }
}
