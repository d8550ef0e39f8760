package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The suspicion rule of {@link FailureDetector} in virtual time: ticks every {@link #INTERVAL_NS}, acks placed
 * exactly where the test wants them. No clock, no sockets.
 */
class FailureDetectorTest {
    private static final long MS = 1_000_000L;
    private static final long INTERVAL_NS = 100 * MS;
    private static final int MISS = 5;

    private final List<String> events = new ArrayList<>();
    private final TransitionListener<String> recorder = new TransitionListener<>() {
        @Override
        public void failed(int member, String address, long nowNs) {
            events.add("failed " + member + " " + address + " @" + nowNs / MS);
        }

        @Override
        public void recovered(int member, String address, long nowNs) {
            events.add("recovered " + member + " " + address + " @" + nowNs / MS);
        }
    };

    private FailureDetector<String> detector(int... ids) {
        Map<Integer, String> members = new TreeMap<>();
        for (int id : ids) {
            members.put(id, "n" + id);
        }
        return new FailureDetector<>(members, INTERVAL_NS, MISS, recorder);
    }

    /** Tick number {@code k} happens at {@code k * INTERVAL_NS}. */
    private static List<Ping<String>> tick(FailureDetector<String> fd, int k) {
        return fd.onTick(k * INTERVAL_NS);
    }

    @Test
    void shouldPingEveryMemberOnTheFirstTickWithSequenceOne() {
        FailureDetector<String> fd = detector(3, 1, 2);

        List<Ping<String>> pings = tick(fd, 0);

        assertEquals(List.of(new Ping<>(1, "n1", 1L), new Ping<>(2, "n2", 1L), new Ping<>(3, "n3", 1L)), pings);
        assertEquals(1L, fd.sequence());
        assertEquals(INTERVAL_NS, fd.nextTickNs());
    }

    @Test
    void shouldNotStartARoundBeforeTheIntervalHasPassed() {
        FailureDetector<String> fd = detector(1);
        tick(fd, 0);

        assertEquals(List.of(), fd.onTick(INTERVAL_NS - 1));
        assertEquals(1L, fd.sequence(), "an early tick changes nothing");

        assertEquals(List.of(new Ping<>(1, "n1", 2L)), fd.onTick(INTERVAL_NS));
    }

    @Test
    void shouldScheduleTheNextRoundFromALateTick() {
        FailureDetector<String> fd = detector(1);
        tick(fd, 0);

        fd.onTick(250 * MS);

        assertEquals(350 * MS, fd.nextTickNs(), "a late tick does not bring a burst of catch-up rounds");
        assertEquals(List.of(), fd.onTick(349 * MS));
    }

    @Test
    void shouldReportFailureExactlyAtTheMissBound() {
        FailureDetector<String> fd = detector(7);
        // Rounds 1..3 (ticks 0..2) are answered; round 4 (opened at tick 3) and later are not.
        for (int k = 0; k <= 2; k++) {
            tick(fd, k);
            assertEquals(AckResult.ACCEPTED, fd.onAck(7, fd.sequence(), k * INTERVAL_NS + MS));
        }
        // Ticks 4..7 close the unanswered rounds 4..7: MISS - 1 = 4 misses, not failed yet.
        for (int k = 3; k <= 2 + MISS; k++) {
            tick(fd, k);
            assertEquals(List.of(), events, "after tick " + k);
            assertFalse(fd.isFailed(7));
        }

        tick(fd, 3 + MISS);

        assertEquals(List.of("failed 7 n7 @800"), events, "the tick closing the 5th missed round reports it");
        assertTrue(fd.isFailed(7));
        assertEquals(1, fd.failedCount());
    }

    @Test
    void shouldReportAMemberThatNeverAnswersAtTheMissthTick() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k < MISS; k++) {
            tick(fd, k);
        }
        assertEquals(List.of(), events);

        tick(fd, MISS);

        assertEquals(List.of("failed 1 n1 @500"), events);
    }

    @Test
    void shouldReportAFailureOnceWhileTheMemberStaysSilent() {
        FailureDetector<String> fd = detector(1, 2);

        for (int k = 0; k <= 100; k++) {
            tick(fd, k);
            fd.onAck(2, fd.sequence(), k * INTERVAL_NS);
        }

        assertEquals(List.of("failed 1 n1 @500"), events);
    }

    @Test
    void shouldKeepPingingAFailedMember() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= MISS; k++) {
            tick(fd, k);
        }
        assertTrue(fd.isFailed(1));

        assertEquals(List.of(new Ping<>(1, "n1", MISS + 2L)), tick(fd, MISS + 1));
    }

    @Test
    void shouldRecoverOnTheFirstAckAfterAFailure() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= MISS + 2; k++) {
            tick(fd, k);
        }

        assertEquals(AckResult.ACCEPTED, fd.onAck(1, fd.sequence(), 705 * MS));
        assertEquals(List.of("failed 1 n1 @500", "recovered 1 n1 @705"), events);
        assertFalse(fd.isFailed(1));
        assertEquals(0, fd.failedCount());

        // Answering from then on: no more transitions.
        for (int k = MISS + 3; k < 30; k++) {
            tick(fd, k);
            fd.onAck(1, fd.sequence(), k * INTERVAL_NS + MS);
        }
        assertEquals(2, events.size(), events.toString());
    }

    @Test
    void shouldFailAgainAfterRecoveringAndFallingSilentAgain() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= MISS; k++) {
            tick(fd, k);
        }
        fd.onAck(1, fd.sequence(), 550 * MS);

        for (int k = MISS + 1; k <= 2 * MISS + 1; k++) {
            tick(fd, k);
        }

        assertEquals(List.of("failed 1 n1 @500", "recovered 1 n1 @550", "failed 1 n1 @1100"), events);
    }

    @Test
    void shouldNotFailAMemberThatAnswersAtLeastOnceEveryMissRounds() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k < 200; k++) {
            tick(fd, k);
            if (k % MISS == 0) {
                fd.onAck(1, fd.sequence(), k * INTERVAL_NS + MS);
            }
        }
        assertEquals(List.of(), events);
    }

    @Test
    void shouldIgnoreLateAcks() {
        FailureDetector<String> fd = detector(1);
        tick(fd, 0);
        // Each round's ack arrives only after the next round opened: always late, so every round is missed.
        for (int k = 1; k <= MISS; k++) {
            long answered = fd.sequence();
            tick(fd, k);
            assertEquals(AckResult.LATE, fd.onAck(1, answered, k * INTERVAL_NS + MS), "tick " + k);
        }
        assertEquals(List.of("failed 1 n1 @500"), events);

        // A late ack does not recover a failed member either.
        tick(fd, MISS + 1);
        assertEquals(AckResult.LATE, fd.onAck(1, fd.sequence() - 1, 610 * MS));
        assertTrue(fd.isFailed(1));
        assertEquals(1, events.size());
    }

    @Test
    void shouldIgnoreDuplicateAcks() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= MISS; k++) {
            tick(fd, k);
        }
        assertEquals(AckResult.ACCEPTED, fd.onAck(1, fd.sequence(), 510 * MS));

        assertEquals(AckResult.DUPLICATE, fd.onAck(1, fd.sequence(), 520 * MS));
        assertEquals(AckResult.DUPLICATE, fd.onAck(1, fd.sequence(), 530 * MS));

        assertEquals(List.of("failed 1 n1 @500", "recovered 1 n1 @510"), events, "recovered once");
    }

    @Test
    void shouldIgnoreAcksFromUnknownMembersOrForUnsentSequences() {
        FailureDetector<String> fd = detector(1, 2);
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 0L, 0), "nothing sent yet");
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 1L, 0), "nothing sent yet");
        tick(fd, 0);

        assertEquals(AckResult.UNKNOWN_MEMBER, fd.onAck(3, 1L, MS));
        assertEquals(AckResult.UNKNOWN_MEMBER, fd.onAck(-1, 1L, MS));
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 2L, MS), "ahead of the open round");
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 0L, MS));
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, -5L, MS));
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, Long.MAX_VALUE, MS));

        // None of them counted as an answer: member 1 still fails on time, member 2 (answering) does not.
        for (int k = 1; k <= MISS; k++) {
            fd.onAck(2, fd.sequence(), k * INTERVAL_NS - MS);
            tick(fd, k);
        }
        assertEquals(List.of("failed 1 n1 @500"), events);
        assertFalse(fd.isFailed(3));
    }

    @Test
    void shouldCompareTimesWrapSafely() {
        FailureDetector<String> fd = detector(1);
        long start = Long.MAX_VALUE - 150 * MS;
        fd.onTick(start);

        assertEquals(List.of(), fd.onTick(start + 99 * MS));
        assertEquals(1, fd.onTick(start + INTERVAL_NS).size(), "the due time lies past Long.MAX_VALUE");
        assertEquals(List.of(), fd.onTick(start + 150 * MS));
        assertEquals(1, fd.onTick(start + 2 * INTERVAL_NS).size());
    }

    @Test
    void shouldJudgeManyMembersIndependently() {
        int members = 500;
        SplittableRandom rnd = new SplittableRandom(42);
        Map<Integer, String> addresses = new HashMap<>();
        // Member i answers the rounds up to a random lastAnswered[i] (0 = none, 1000 = all of them), except for its
        // gaps: MISS - 1 silent rounds in every MISS + 2, shifted by i, so it never misses MISS in a row while
        // answering. After lastAnswered[i] it is silent for good.
        int[] lastAnswered = new int[members];
        for (int i = 0; i < members; i++) {
            addresses.put(i, "n" + i);
            lastAnswered[i] = rnd.nextInt(4) == 0 ? 1_000 : rnd.nextInt(60);
        }
        FailureDetector<String> fd = new FailureDetector<>(addresses, INTERVAL_NS, MISS, recorder);
        int ticks = 80;
        for (int k = 0; k < ticks; k++) {
            tick(fd, k);
            long round = fd.sequence();
            for (int i = 0; i < members; i++) {
                boolean inGap = (round + i) % (MISS + 2) < MISS - 1;
                if (round <= lastAnswered[i] && !inGap) {
                    fd.onAck(i, round, k * INTERVAL_NS + MS);
                }
            }
        }

        // Expected: the tick closing the MISS-th silent round after the last answered one (round r opens at tick r-1).
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < ticks; k++) {
            for (int i = 0; i < members; i++) {
                int lastAck = lastAnsweredRound(lastAnswered[i], i);
                if (lastAck + MISS == k) {
                    expected.add("failed " + i + " n" + i + " @" + k * 100);
                }
            }
        }
        assertEquals(expected.size(), events.size());
        assertEquals(sortedCopy(expected), sortedCopy(events));
        assertTrue(expected.size() > members / 2, "most members fail within the run: " + expected.size());
    }

    /** The last round member {@code i} answered when it answers up to {@code last} outside its gaps. */
    private static int lastAnsweredRound(int last, int i) {
        for (int round = last; round >= 1; round--) {
            if ((round + i) % (MISS + 2) >= MISS - 1) {
                return round;
            }
        }
        return 0;
    }

    private static List<String> sortedCopy(List<String> list) {
        List<String> copy = new ArrayList<>(list);
        copy.sort(null);
        return copy;
    }

    @Test
    void shouldRefuseABadConfiguration() {
        Map<Integer, String> one = Map.of(1, "n1");
        assertThrows(IllegalArgumentException.class, () -> new FailureDetector<>(one, 0, MISS, recorder));
        assertThrows(IllegalArgumentException.class, () -> new FailureDetector<>(one, -1, MISS, recorder));
        assertThrows(IllegalArgumentException.class, () -> new FailureDetector<>(one, INTERVAL_NS, 0, recorder));
        assertThrows(NullPointerException.class, () -> new FailureDetector<>(one, INTERVAL_NS, MISS, null));
    }

    @Test
    void shouldWorkWithoutMembers() {
        FailureDetector<String> fd = detector();
        assertEquals(List.of(), fd.onTick(0));
        assertEquals(INTERVAL_NS, fd.nextTickNs(), "rounds go on, so a detector that only answers still ticks");
        assertEquals(AckResult.UNKNOWN_MEMBER, fd.onAck(1, 1L, MS));
    }
}
