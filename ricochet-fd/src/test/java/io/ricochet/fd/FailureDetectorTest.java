package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * The suspicion rule of {@link FailureDetector} in virtual time: ticks and acks at exactly the {@code nowNs} the test
 * chooses. No clock, no sockets, no sleeps. Unless a test says otherwise the parameters are the command's defaults:
 * interval 100 ms, miss 5, phi threshold 8, acceptable pause 1 s, minimum standard deviation 100 ms.
 *
 * <p>With those, a member that answered every round within a millisecond has a history of mean 100 ms and a
 * deviation floored at 100 ms: its phi reaches 8 about 5.23 deviations past 1100 ms, that is 1623 ms after its
 * last ack. Answered at tick time + 1 ms, it is failed at the 17th tick after its last answered one.
 */
class FailureDetectorTest {
    private static final long MS = 1_000_000L;
    private static final long INTERVAL_NS = 100 * MS;
    private static final int MISS = 5;
    /** Ticks from the one whose round a steady member last answered (1 ms later) to the one that fails it. */
    private static final int STEADY_DETECTION_TICKS = 17;

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

        @Override
        public void firstAnswer(int member, String address, long nowNs) {
            events.add("first answer " + member + " " + address + " @" + nowNs / MS);
        }
    };
    /** The send time of every round, as the driver would have put it in the HEARTBEATs. */
    private final Map<Long, Long> sentAt = new HashMap<>();

    /** The settings the exact times below were worked out with: threshold 8, a 1 s pause, a 100 ms deviation floor. */
    private static final PhiParameters SETTINGS = new PhiParameters(8.0, 1_000 * MS, 100 * MS);

    private FailureDetector<String> detector(int... ids) {
        return detector(SETTINGS, ids);
    }

    private FailureDetector<String> detector(PhiParameters phi, int... ids) {
        Map<Integer, String> members = new TreeMap<>();
        for (int id : ids) {
            members.put(id, "n" + id);
        }
        return new FailureDetector<>(members, INTERVAL_NS, MISS, phi, recorder);
    }

    /** Tick number {@code k} happens at {@code k * INTERVAL_NS}. */
    private List<Ping<String>> tick(FailureDetector<String> fd, int k) {
        return tickAt(fd, k * INTERVAL_NS);
    }

    private List<Ping<String>> tickAt(FailureDetector<String> fd, long nowNs) {
        long before = fd.sequence();
        List<Ping<String>> pings = fd.onTick(nowNs);
        if (fd.sequence() != before) {
            sentAt.put(fd.sequence(), nowNs);
        }
        return pings;
    }

    /** An ack of {@code round} echoing the send time this detector used for it. */
    private AckResult ack(FailureDetector<String> fd, int member, long round, long nowNs) {
        return fd.onAck(member, round, sentAt.getOrDefault(round, 0L), nowNs);
    }

    /** Ticks {@code from..to}, member {@code id} answering each round 1 ms after it opens. */
    private void steady(FailureDetector<String> fd, int id, int from, int to) {
        for (int k = from; k <= to; k++) {
            tick(fd, k);
            assertEquals(AckResult.ACCEPTED, ack(fd, id, fd.sequence(), k * INTERVAL_NS + MS), "tick " + k);
        }
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
    void shouldNeverFailAMemberThatAnswersEveryRound() {
        FailureDetector<String> fd = detector(1);

        steady(fd, 1, 0, 20_000);

        assertEquals(List.of(), events);
        assertTrue(fd.phi(1, 20_000 * INTERVAL_NS + MS) < 1e-6, "no suspicion right after an ack");
    }

    @Test
    void shouldFailAMemberThatStopsAnsweringOnceItsSilenceIsImprobable() {
        FailureDetector<String> fd = detector(7);
        steady(fd, 7, 0, 50);
        // Last ack at 5001 ms. Mean 100 + pause 1000 = 1100 ms, deviation floored at 100 ms: not failed while the
        // silence is under 1100 + 5 * 100 ms, failed by 1100 + 6 * 100 ms (phi 8 lies at ~5.23 deviations).
        int k = 51;
        for (; (k * INTERVAL_NS - 5_001 * MS) < 1_600 * MS; k++) {
            tick(fd, k);
            assertEquals(List.of(), events, "tick " + k + ", phi " + fd.phi(7, k * INTERVAL_NS));
        }
        for (; (k * INTERVAL_NS - 5_001 * MS) <= 1_700 * MS && events.isEmpty(); k++) {
            tick(fd, k);
        }

        assertEquals(List.of("failed 7 n7 @" + (50 + STEADY_DETECTION_TICKS) * 100), events);
        assertTrue(fd.isFailed(7));
        assertEquals(1, fd.failedCount());
        assertTrue(fd.phi(7, 6_700 * MS) >= 8);
    }

    @Test
    void shouldNotFailBeforeMissRoundsEvenWhenPhiIsHigh() {
        // No acceptable pause and a tiny deviation floor: after a steady history phi exceeds 8 as soon as the
        // silence is a few milliseconds longer than one interval, from the second missed round on.
        FailureDetector<String> fd = detector(new PhiParameters(8, 0, MS), 1);
        steady(fd, 1, 0, 20);
        // Tick 21 closes round 21, answered; ticks 22.. close the missed rounds 22...
        for (int k = 21; k <= 20 + MISS; k++) {
            tick(fd, k);
            assertTrue(k == 21 || fd.phi(1, k * INTERVAL_NS) > 8, "phi at tick " + k);
            assertEquals(List.of(), events, "tick " + k + " closes only " + (k - 21) + " missed rounds");
        }

        tick(fd, 21 + MISS);

        assertEquals(List.of("failed 1 n1 @2600"), events, "the tick closing the 5th missed round");
    }

    @Test
    void shouldReportAMemberThatNeverAnswersAtTheMissthTick() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k < MISS; k++) {
            tick(fd, k);
        }
        assertEquals(List.of(), events);
        assertTrue(Double.isNaN(fd.phi(1, MISS * INTERVAL_NS)), "no history: no phi");

        tick(fd, MISS);

        assertEquals(List.of("failed 1 n1 @500"), events);
    }

    @Test
    void shouldReportAFailureOnceWhileTheMemberStaysSilent() {
        FailureDetector<String> fd = detector(1, 2);

        for (int k = 0; k <= 100; k++) {
            tick(fd, k);
            ack(fd, 2, fd.sequence(), k * INTERVAL_NS);
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

        assertEquals(AckResult.ACCEPTED, ack(fd, 1, fd.sequence(), 705 * MS));
        assertEquals(List.of("failed 1 n1 @500", "recovered 1 n1 @705"), events);
        assertFalse(fd.isFailed(1));
        assertEquals(0, fd.failedCount());

        // Answering from then on: no more transitions.
        steady(fd, 1, MISS + 3, 300);
        assertEquals(2, events.size(), events.toString());
    }

    @Test
    void shouldRecoverAfterAPhiVerdictWithoutLearningTheOutage() {
        FailureDetector<String> fd = detector(1);
        steady(fd, 1, 0, 50);
        for (int k = 51; k <= 50 + STEADY_DETECTION_TICKS; k++) {
            tick(fd, k);
        }
        assertEquals(List.of("failed 1 n1 @6700"), events);
        // Back after a 10 s outage: one ack recovers it.
        for (int k = 68; k <= 150; k++) {
            tick(fd, k);
        }
        assertEquals(AckResult.ACCEPTED, ack(fd, 1, fd.sequence(), 15_001 * MS));
        assertEquals("recovered 1 n1 @15001", events.get(1));

        // The outage was not recorded as an interval: falling silent again is detected as fast as the first time.
        for (int k = 151; k <= 150 + STEADY_DETECTION_TICKS; k++) {
            tick(fd, k);
        }
        assertEquals(List.of("failed 1 n1 @6700", "recovered 1 n1 @15001", "failed 1 n1 @16700"), events);
    }

    @Test
    void shouldFailAgainAfterRecoveringAndFallingSilentAgain() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= MISS; k++) {
            tick(fd, k);
        }
        ack(fd, 1, fd.sequence(), 550 * MS);

        // Heard once, at 550 ms: its history is the bootstrap sample (one interval), so phi reaches 8 ~1623 ms later.
        for (int k = MISS + 1; k <= 22; k++) {
            tick(fd, k);
        }

        assertEquals(List.of("failed 1 n1 @500", "recovered 1 n1 @550", "failed 1 n1 @2200"), events);
    }

    @Test
    void shouldNotFailAMemberThatAnswersAtLeastOnceEveryMissRounds() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k < 2_000; k++) {
            tick(fd, k);
            if (k % MISS == 0) {
                ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
            }
        }
        assertEquals(List.of(), events);
    }

    @Test
    void shouldCountLateAcksAsHeartbeats() {
        FailureDetector<String> fd = detector(1);
        tick(fd, 0);
        // Each round's ack arrives only after the next round opened: every round closes unanswered, yet the member
        // is heard from every interval.
        for (int k = 1; k <= 5_000; k++) {
            long answered = fd.sequence();
            tick(fd, k);
            assertEquals(AckResult.LATE, ack(fd, 1, answered, k * INTERVAL_NS + MS), "tick " + k);
        }
        assertEquals(List.of(), events);
    }

    @Test
    void shouldRecoverAFailedMemberOnALateAck() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= MISS + 1; k++) {
            tick(fd, k);
        }
        assertTrue(fd.isFailed(1));

        assertEquals(AckResult.LATE, ack(fd, 1, 3, 610 * MS), "round 3 was sent by this run: the member is alive");

        assertEquals(List.of("failed 1 n1 @500", "recovered 1 n1 @610"), events);
    }

    @Test
    void shouldNotFailABusyMemberWhoseAcksComeInLateBursts() {
        // A daemon on an overloaded host: it reads its socket only every 300 to 900 ms, then answers every ping
        // waiting there at once. Its acks are up to 9 rounds late; no round but the one it wakes in is answered on
        // time, so it misses up to 8 rounds in a row. It is alive, and must never be reported.
        FailureDetector<String> fd = detector(1);
        SplittableRandom rnd = new SplittableRandom(7);
        long wakeNs = 0;
        long lastBurstNs = 0;
        long answeredUpTo = 0;
        int lateAcks = 0;
        for (int k = 0; k < 6_000; k++) {
            long tickNs = k * INTERVAL_NS;
            while (wakeNs < tickNs) {
                for (long round = answeredUpTo + 1; round <= fd.sequence(); round++) {
                    lateAcks += ack(fd, 1, round, wakeNs) == AckResult.LATE ? 1 : 0;
                }
                answeredUpTo = fd.sequence();
                lastBurstNs = wakeNs;
                wakeNs += rnd.nextLong(300, 901) * MS;
            }
            tick(fd, k);
        }

        assertEquals(List.of(), events);
        assertTrue(lateAcks > 4_000, "most acks were late: " + lateAcks);

        // Then it crashes: its burstier history makes the detector wait longer, but not unboundedly.
        int k = 6_000;
        for (; events.isEmpty() && k < 6_100; k++) {
            tick(fd, k);
        }
        long detectedAfterNs = (k - 1) * INTERVAL_NS - lastBurstNs;
        assertEquals(1, events.size(), events.toString());
        assertTrue(detectedAfterNs > 1_000 * MS && detectedAfterNs < 4_000 * MS, detectedAfterNs / MS + " ms");
    }

    @Test
    void shouldJudgeNobodyAtATickThatRunsLate() {
        FailureDetector<String> fd = detector(1, 2);
        // Member 1 answers steadily up to round 3; member 2 never does (3 missed rounds by tick 3).
        steady(fd, 1, 0, 2);
        tick(fd, 3);

        // The detector is starved for 3 s: its next tick runs at 3300 ms instead of 400 ms. Member 1's ack of
        // round 4 sits unread in the socket until after that tick; phi alone would fail it.
        assertTrue(fd.phi(1, 3_300 * MS) > 8);
        tickAt(fd, 3_300 * MS);

        assertEquals(List.of(), events, "no verdict at a late tick");
        assertEquals(1, fd.lateTicks());
        assertEquals(AckResult.LATE, ack(fd, 1, 4, 3_301 * MS));
        assertEquals(AckResult.ACCEPTED, ack(fd, 1, 5, 3_302 * MS));

        // The late tick closed no missed round for member 2: it is failed at its 5th real one, at 3500 ms.
        tickAt(fd, 3_400 * MS);
        ack(fd, 1, fd.sequence(), 3_401 * MS);
        assertEquals(List.of(), events);
        tickAt(fd, 3_500 * MS);
        assertEquals(List.of("failed 2 n2 @3500"), events);
        assertEquals(1, fd.lateTicks());
    }

    @Test
    void shouldNotLearnTheDetectorsOwnStallAsAnInterval() {
        FailureDetector<String> fd = detector(1);
        steady(fd, 1, 0, 20);
        tickAt(fd, 5_000 * MS);
        assertEquals(1, fd.lateTicks());
        assertEquals(AckResult.ACCEPTED, ack(fd, 1, fd.sequence(), 5_001 * MS));

        // Then the member dies: detection takes as long as after a history without the stall.
        for (int k = 51; k <= 50 + STEADY_DETECTION_TICKS; k++) {
            tick(fd, k);
        }
        assertEquals(List.of("failed 1 n1 @6700"), events);
    }

    @Test
    void shouldIgnoreDuplicateAndReorderedAcks() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= MISS; k++) {
            tick(fd, k);
        }
        assertEquals(AckResult.ACCEPTED, ack(fd, 1, fd.sequence(), 510 * MS));

        assertEquals(AckResult.DUPLICATE, ack(fd, 1, fd.sequence(), 520 * MS));
        assertEquals(AckResult.DUPLICATE, ack(fd, 1, fd.sequence(), 530 * MS));
        assertEquals(AckResult.DUPLICATE, ack(fd, 1, fd.sequence() - 1, 540 * MS), "older than the latest answer");

        assertEquals(List.of("failed 1 n1 @500", "recovered 1 n1 @510"), events, "recovered once");
    }

    @Test
    void shouldIgnoreAcksFromUnknownMembersOrForUnsentSequences() {
        FailureDetector<String> fd = detector(1, 2);
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 0L, 0, 0), "nothing sent yet");
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 1L, 0, 0), "nothing sent yet");
        tick(fd, 0);

        assertEquals(AckResult.UNKNOWN_MEMBER, ack(fd, 3, 1L, MS));
        assertEquals(AckResult.UNKNOWN_MEMBER, ack(fd, -1, 1L, MS));
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 2L, 0, MS), "ahead of the open round");
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 1L, 12_345, MS), "another run's round 1");
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, 0L, 0, MS));
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, -5L, 0, MS));
        assertEquals(AckResult.UNKNOWN_SEQUENCE, fd.onAck(1, Long.MAX_VALUE, 0, MS));

        // None of them counted as an answer: member 1 still fails on time, member 2 (answering) does not.
        for (int k = 1; k <= MISS; k++) {
            ack(fd, 2, fd.sequence(), k * INTERVAL_NS - MS);
            tick(fd, k);
        }
        assertEquals(List.of("failed 1 n1 @500"), events);
        assertFalse(fd.isFailed(3));
    }

    @Test
    void shouldRefuseAcksTooOldToCheck() {
        FailureDetector<String> fd = detector(1);
        for (int k = 0; k <= FailureDetector.ROUNDS_REMEMBERED; k++) {
            tick(fd, k);
            ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
        }

        assertEquals(AckResult.UNKNOWN_SEQUENCE, ack(fd, 1, 1, FailureDetector.ROUNDS_REMEMBERED * INTERVAL_NS));
        assertEquals(AckResult.DUPLICATE, ack(fd, 1, 2, FailureDetector.ROUNDS_REMEMBERED * INTERVAL_NS));
    }

    @Test
    void shouldCompareTimesWrapSafely() {
        FailureDetector<String> fd = detector(1);
        long start = Long.MAX_VALUE - 150 * MS;
        tickAt(fd, start);

        assertEquals(List.of(), tickAt(fd, start + 99 * MS));
        assertEquals(1, tickAt(fd, start + INTERVAL_NS).size(), "the due time lies past Long.MAX_VALUE");
        assertEquals(AckResult.ACCEPTED, ack(fd, 1, 2, start + INTERVAL_NS + MS));
        assertEquals(List.of(), tickAt(fd, start + 150 * MS));
        assertEquals(1, tickAt(fd, start + 2 * INTERVAL_NS).size());
        assertEquals(0, fd.lateTicks());
        assertTrue(fd.phi(1, start + 2 * INTERVAL_NS) < 1e-6, "elapsed time measured across the wrap");
    }

    @Test
    void shouldJudgeManyMembersIndependently() {
        int members = 500;
        SplittableRandom rnd = new SplittableRandom(42);
        Map<Integer, String> addresses = new HashMap<>();
        // Member i answers every round up to a random lastAnswered[i] (0 = none, 1000 = all of them), 1 ms after
        // it opens, then is silent for good.
        int[] lastAnswered = new int[members];
        for (int i = 0; i < members; i++) {
            addresses.put(i, "n" + i);
            lastAnswered[i] = rnd.nextInt(4) == 0 ? 1_000 : rnd.nextInt(60);
        }
        FailureDetector<String> fd = new FailureDetector<>(addresses, INTERVAL_NS, MISS, SETTINGS, recorder);
        int ticks = 100;
        for (int k = 0; k < ticks; k++) {
            tick(fd, k);
            long round = fd.sequence();
            for (int i = 0; i < members; i++) {
                if (round <= lastAnswered[i]) {
                    ack(fd, i, round, k * INTERVAL_NS + MS);
                }
            }
        }

        // Never answered: failed at tick MISS. Otherwise (round r opens at tick r - 1): failed
        // STEADY_DETECTION_TICKS after the tick of its last answered round.
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            int failTick = lastAnswered[i] == 0 ? MISS : lastAnswered[i] - 1 + STEADY_DETECTION_TICKS;
            if (failTick < ticks) {
                expected.add("failed " + i + " n" + i + " @" + failTick * 100);
            }
        }
        assertEquals(sortedCopy(expected), sortedCopy(events));
        assertTrue(expected.size() > members / 2, "most members fail within the run: " + expected.size());
    }

    private static List<String> sortedCopy(List<String> list) {
        List<String> copy = new ArrayList<>(list);
        copy.sort(null);
        return copy;
    }

    /** Members {@code ids}, each at address "n" + id. */
    private static Map<Integer, String> members(int... ids) {
        Map<Integer, String> map = new TreeMap<>();
        for (int id : ids) {
            map.put(id, "n" + id);
        }
        return map;
    }

    @Test
    void shouldStartAnAddedMemberWithNoHistoryAndJudgeItOnItsOwnRounds() {
        FailureDetector<String> fd = detector(1);
        steady(fd, 1, 0, 10);
        // Round 11 is open: member 2, added now, is first pinged in round 12, at tick 11.
        FailureDetector.Change change = fd.setMembers(members(1, 2));

        assertEquals(new FailureDetector.Change(List.of(2), List.of(), List.of()), change);
        assertEquals(AckResult.UNKNOWN_SEQUENCE, ack(fd, 2, 11, 10 * INTERVAL_NS + 2 * MS),
                "round 11 was not sent to it");
        assertTrue(Double.isNaN(fd.phi(2, 10 * INTERVAL_NS + 2 * MS)), "no history");
        List<Ping<String>> pings = tick(fd, 11);
        assertEquals(List.of(new Ping<>(1, "n1", 12L), new Ping<>(2, "n2", 12L)), pings);
        ack(fd, 1, 12, 11 * INTERVAL_NS + MS);
        // It never answers: rounds 12..16 are its MISS silent rounds, closed by ticks 12..16.
        for (int k = 12; k < 11 + MISS; k++) {
            tick(fd, k);
            ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
            assertEquals(List.of(), events, "tick " + k);
        }

        tick(fd, 11 + MISS);

        assertEquals(List.of("failed 2 n2 @1600"), events);
        assertEquals(1, fd.failedCount());
    }

    @Test
    void shouldKeepTheHistoryAndStateOfAKeptMemberAndPingItsNewAddress() {
        FailureDetector<String> fd = detector(1, 2);
        for (int k = 0; k <= 50; k++) {
            tick(fd, k);
            ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
        }
        assertEquals(List.of("failed 2 n2 @500"), events);

        Map<Integer, String> moved = members(1, 2);
        moved.put(1, "n1-moved");
        FailureDetector.Change change = fd.setMembers(moved);

        assertEquals(new FailureDetector.Change(List.of(), List.of(), List.of(1)), change);
        assertTrue(fd.isFailed(2), "still failed: no new verdict");
        assertEquals(1, fd.failedCount());
        assertEquals(List.of(new Ping<>(1, "n1-moved", 52L), new Ping<>(2, "n2", 52L)), tick(fd, 51));
        // Member 1 falls silent after round 51: its history is kept, so it is failed as fast as if nothing changed.
        for (int k = 52; k <= 50 + STEADY_DETECTION_TICKS; k++) {
            tick(fd, k);
        }
        assertEquals(List.of("failed 2 n2 @500", "failed 1 n1-moved @6700"), events);
        assertEquals(AckResult.ACCEPTED, ack(fd, 2, fd.sequence(), 6_701 * MS));
        assertEquals("recovered 2 n2 @6701", events.get(2));
        assertEquals(new FailureDetector.Change(List.of(), List.of(), List.of()), fd.setMembers(moved));
        assertTrue(fd.setMembers(moved).isEmpty());
    }

    @Test
    void shouldForgetARemovedMemberWithoutAVerdict() {
        FailureDetector<String> fd = detector(1, 2, 3);
        for (int k = 0; k <= MISS; k++) {
            tick(fd, k);
            ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
        }
        assertEquals(List.of("failed 2 n2 @500", "failed 3 n3 @500"), events);
        tick(fd, MISS + 1);

        FailureDetector.Change change = fd.setMembers(members(1));

        assertEquals(new FailureDetector.Change(List.of(), List.of(2, 3), List.of()), change);
        assertEquals(0, fd.failedCount());
        assertFalse(fd.isFailed(2));
        assertEquals(AckResult.UNKNOWN_MEMBER, ack(fd, 2, fd.sequence(), (MISS + 1) * INTERVAL_NS + MS),
                "no recovery of a member no longer watched");
        assertEquals(List.of(new Ping<>(1, "n1", MISS + 3L)), tick(fd, MISS + 2));
        assertArrayEquals(new int[] {1}, fd.memberIds());

        // Added again, member 3 starts afresh: first pinged at tick MISS + 3, failed MISS silent rounds later.
        fd.setMembers(members(1, 3));
        for (int k = MISS + 3; k < 2 * MISS + 3; k++) {
            tick(fd, k);
        }
        assertEquals(2, events.size(), events.toString());
        tick(fd, 2 * MISS + 3);
        assertEquals(List.of("failed 2 n2 @500", "failed 3 n3 @500", "failed 3 n3 @" + (2 * MISS + 3) * 100),
                events);
    }

    @Test
    void shouldForgetASilentMemberRemovedBeforeItsVerdict() {
        FailureDetector<String> fd = detector(1, 2);
        for (int k = 0; k < MISS; k++) {
            tick(fd, k);
            ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
        }
        fd.setMembers(members(1));

        for (int k = MISS; k <= 10 * MISS; k++) {
            tick(fd, k);
            ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
        }

        assertEquals(List.of(), events, "member 2 was one round short of its verdict when it was removed");
    }

    @Test
    void shouldReportTheFirstAnswerOfAMemberAddedToReportItOnceAndOnlyIts() {
        FailureDetector<String> fd = detector(1);
        steady(fd, 1, 0, 10);
        // Round 11 is open: members 2 and 3, added now, are first pinged in round 12, at tick 11.
        fd.setMembers(members(1, 2), true);
        fd.setMembers(members(1, 2, 3), false);
        assertEquals(AckResult.UNKNOWN_SEQUENCE, ack(fd, 2, 11, 10 * INTERVAL_NS + 2 * MS),
                "an ack of a round not sent to it is no answer");
        tick(fd, 11);
        ack(fd, 1, 12, 11 * INTERVAL_NS + MS);
        ack(fd, 3, 12, 11 * INTERVAL_NS + MS);
        assertEquals(List.of(), events, "member 1, given to the constructor, and member 3, added without it");

        assertEquals(AckResult.ACCEPTED, ack(fd, 2, 12, 11 * INTERVAL_NS + 3 * MS));
        assertEquals(List.of("first answer 2 n2 @1103"), events);
        assertFalse(fd.isFailed(2));
        assertEquals(0, fd.failedCount());

        // Once only: later answers, and a new list that keeps it, report nothing more.
        fd.setMembers(members(1, 2, 3), true);
        for (int k = 12; k <= 30; k++) {
            tick(fd, k);
            for (int id = 1; id <= 3; id++) {
                ack(fd, id, fd.sequence(), k * INTERVAL_NS + MS);
            }
        }
        assertEquals(List.of("first answer 2 n2 @1103"), events);
        // Removed and added again: a new member, whose first answer is reported again.
        fd.setMembers(members(1, 3), true);
        fd.setMembers(members(1, 2, 3), true);
        tick(fd, 31);
        ack(fd, 2, fd.sequence(), 31 * INTERVAL_NS + MS);
        assertEquals(List.of("first answer 2 n2 @1103", "first answer 2 n2 @3101"), events);
    }

    @Test
    void shouldReportOnlyTheRecoveryOfAMemberAddedToReportItsFirstAnswerThatFailsFirst() {
        FailureDetector<String> fd = detector(1);
        steady(fd, 1, 0, 10);
        fd.setMembers(members(1, 2), true);
        for (int k = 11; k <= 11 + MISS; k++) {
            tick(fd, k);
            ack(fd, 1, fd.sequence(), k * INTERVAL_NS + MS);
        }
        assertEquals(List.of("failed 2 n2 @1600"), events, "it never answered: failed MISS rounds after its first");

        assertEquals(AckResult.LATE, ack(fd, 2, 13, 16 * INTERVAL_NS + 2 * MS));

        assertEquals(List.of("failed 2 n2 @1600", "recovered 2 n2 @1602"), events, "a recovery, and nothing more");
        tick(fd, 17);
        ack(fd, 2, fd.sequence(), 17 * INTERVAL_NS + MS);
        assertEquals(2, events.size(), events.toString());
    }

    @Test
    void shouldReportAFirstAnswerAsARecoveryByDefault() {
        List<String> heard = new ArrayList<>();
        FailureDetector<String> fd = new FailureDetector<>(Map.of(), INTERVAL_NS, MISS, SETTINGS,
                new TransitionListener<>() {
                    @Override
                    public void failed(int member, String address, long nowNs) {
                        heard.add("failed " + member);
                    }

                    @Override
                    public void recovered(int member, String address, long nowNs) {
                        heard.add("recovered " + member);
                    }
                });
        fd.setMembers(members(5), true);
        tickAt(fd, 0);
        ack(fd, 5, fd.sequence(), MS);
        assertEquals(List.of("recovered 5"), heard);
    }

    @Test
    void shouldTakeMembersGivenBeforeTheFirstTick() {
        FailureDetector<String> fd = detector();
        assertEquals(new FailureDetector.Change(List.of(4, 9), List.of(), List.of()), fd.setMembers(members(9, 4)));

        assertEquals(List.of(new Ping<>(4, "n4", 1L), new Ping<>(9, "n9", 1L)), tick(fd, 0));
        for (int k = 1; k <= MISS; k++) {
            tick(fd, k);
            ack(fd, 9, fd.sequence(), k * INTERVAL_NS + MS);
        }
        assertEquals(List.of("failed 4 n4 @500"), events);
        assertEquals(2, fd.memberCount());
    }

    @Test
    void shouldRefuseABadConfiguration() {
        Map<Integer, String> one = Map.of(1, "n1");
        assertThrows(IllegalArgumentException.class, () -> new FailureDetector<>(one, 0, MISS, recorder));
        assertThrows(IllegalArgumentException.class, () -> new FailureDetector<>(one, -1, MISS, recorder));
        assertThrows(IllegalArgumentException.class, () -> new FailureDetector<>(one, INTERVAL_NS, 0, recorder));
        assertThrows(NullPointerException.class, () -> new FailureDetector<>(one, INTERVAL_NS, MISS, null));
        assertThrows(NullPointerException.class,
                () -> new FailureDetector<>(one, INTERVAL_NS, MISS, (PhiParameters) null, recorder));
    }

    @Test
    void shouldWorkWithoutMembers() {
        FailureDetector<String> fd = detector();
        assertEquals(List.of(), fd.onTick(0));
        assertEquals(INTERVAL_NS, fd.nextTickNs(), "rounds go on, so a detector that only answers still ticks");
        assertEquals(AckResult.UNKNOWN_MEMBER, fd.onAck(1, 1L, 0, MS));
    }
}
