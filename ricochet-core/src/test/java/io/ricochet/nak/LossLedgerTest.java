package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ReceiveWindow;
import io.ricochet.engine.RecordingOutbox;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Loss discovery and give-up accounting, over a small {@link LossTracker} or a stub {@link LossTable}. */
class LossLedgerTest {
    private static final int ORIGIN = 3;
    private static final int GROUP = 7;

    /** Records the loss reports; nothing else is expected of the ledger. */
    private final Counters counters = new Counters(Counters.set(EngineCounter.values()));
    private final RecordingOutbox reports = new RecordingOutbox();
    private final ReceiveWindow window = new ReceiveWindow(0, 1024);

    private LossTracker tracker(int capacity) {
        return new LossTracker(true, 100, 50, 3, capacity);
    }

    /** The seqnos reported discovered; the ledger reports only losses of (ORIGIN, GROUP) here. */
    private List<Long> discoveredSeqnos() {
        return reports.discoveredIds().stream().map(PacketId::seqno).toList();
    }

    /** The losses reported, each as "seqno@discoveredNs"; the ledger sends and delivers nothing. */
    private List<String> lostAt() {
        assertEquals(List.of(), reports.sent);
        assertEquals(List.of(), reports.delivered);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < reports.lost.size(); i++) {
            assertEquals(id(reports.lost.get(i).seqno()), reports.lost.get(i));
            out.add(reports.lost.get(i).seqno() + "@" + reports.lostDiscoveredNs.get(i));
        }
        return out;
    }

    private static PacketId id(long seqno) {
        return new PacketId(ORIGIN, GROUP, seqno);
    }

    @Test
    void shouldRegisterAndReportEachUnresolvedSeqnoOfAGapOnce() {
        LossTracker tracker = tracker(100);
        LossLedger ledger = new LossLedger(tracker, counters, reports);
        ledger.discoverUpTo(ORIGIN, GROUP, window, 1, 10); // as packet 2 arrives
        window.resolve(2);
        ledger.discoverUpTo(ORIGIN, GROUP, window, 4, 20);
        assertEquals(List.of(0L, 1L, 3L, 4L), discoveredSeqnos(), "2 was received");
        assertEquals(4, counters.get(EngineCounter.LOSSES_DETECTED));
        assertTrue(tracker.isPending(id(3)));
        ledger.discoverUpTo(ORIGIN, GROUP, window, 4, 30);
        ledger.discoverUpTo(ORIGIN, GROUP, window, 3, 30);
        assertEquals(4, counters.get(EngineCounter.LOSSES_DETECTED), "nothing new was revealed");
        assertEquals(4, tracker.size());
        assertEquals(List.of(), lostAt());
    }

    @Test
    void shouldGiveUpAtOnceWhatTheFullTrackerRefuses() {
        LossTracker tracker = tracker(2);
        LossLedger ledger = new LossLedger(tracker, counters, reports);
        ledger.discoverUpTo(ORIGIN, GROUP, window, 3, 10);
        assertEquals(List.of(0L, 1L), discoveredSeqnos());
        assertEquals(List.of("2@10", "3@10"), lostAt(), "reported lost, discovered now");
        assertEquals(4, counters.get(EngineCounter.LOSSES_DETECTED));
        assertEquals(2, counters.get(EngineCounter.LOSS_TABLE_FULL));
        assertEquals(2, counters.get(EngineCounter.UNRECOVERED));
        assertTrue(window.isResolved(3), "never delivered after being reported lost");
        assertFalse(window.isResolved(1), "still pending");
        assertEquals(0, window.base());
    }

    @Test
    void shouldCountNothingForALossTheTableKnowsAlready() {
        List<PacketId> asked = new ArrayList<>();
        LossTable knowsAll = new LossTable() {
            @Override
            public Outcome discover(PacketId id, long nowNs) {
                asked.add(id);
                return Outcome.KNOWN;
            }

            @Override
            public boolean isPending(PacketId id) {
                return true;
            }
        };
        new LossLedger(knowsAll, counters, reports).discoverUpTo(ORIGIN, GROUP, window, 1, 10);
        assertEquals(List.of(id(0), id(1)), asked);
        assertEquals(List.of(), discoveredSeqnos());
        assertEquals(List.of(), lostAt());
        assertEquals(0, counters.get(EngineCounter.LOSSES_DETECTED));
        assertFalse(window.isResolved(0));
    }

    @Test
    void shouldGiveUpOnlyWhatIsStillUnresolvedInTheWindow() {
        LossLedger ledger = new LossLedger(tracker(100), counters, reports);
        ledger.discoverUpTo(ORIGIN, GROUP, window, 1, 10);
        window.resolve(1);
        ledger.giveUp(id(1), window, 10);
        ledger.giveUp(id(0), window, 10);
        assertEquals(List.of("0@10"), lostAt(), "1 arrived before its give-up");
        assertEquals(1, counters.get(EngineCounter.UNRECOVERED));
        assertEquals(2, window.base());
    }

    @Test
    void shouldReportALossTheWindowSlidPast() {
        ReceiveWindow small = new ReceiveWindow(0, 64);
        LossLedger ledger = new LossLedger(tracker(100), counters, reports);
        ledger.discoverUpTo(ORIGIN, GROUP, small, 99, 10);
        small.resolve(100);
        assertEquals(37, small.base(), "slid to hold 100: the losses below stay with the table");
        ledger.giveUp(id(3), small, 10);
        assertEquals(List.of("3@10"), lostAt(), "the table was its only record");
    }

    @Test
    void shouldReportALossOfAForgottenStreamWithoutAWindow() {
        LossLedger ledger = new LossLedger(tracker(100), counters, reports);
        ledger.unrecoverable(id(5), 42);
        assertEquals(List.of("5@42"), lostAt());
        assertEquals(1, counters.get(EngineCounter.UNRECOVERED));
        assertEquals(0, counters.get(EngineCounter.LOSSES_DETECTED));
    }

    @Test
    void shouldRevealALongGapAtMostMaxRevealAtATime() {
        ReceiveWindow wide = new ReceiveWindow(0, 1 << 16);
        LossLedger ledger = new LossLedger(tracker(1 << 16), counters, reports);
        long gap = 3L * ReceiveWindow.MAX_REVEAL + 100;
        ledger.discoverUpTo(ORIGIN, GROUP, wide, gap - 1, 10);
        assertEquals(ReceiveWindow.MAX_REVEAL, discoveredSeqnos().size(), "one frame buys one reveal's work");
        assertEquals(ReceiveWindow.MAX_REVEAL - 1, wide.revealed());
        assertEquals(10 + LossLedger.REVEAL_INTERVAL_NS, ledger.nextRevealNs());
        ledger.revealPending(10 + LossLedger.REVEAL_INTERVAL_NS - 1);
        assertEquals(ReceiveWindow.MAX_REVEAL, discoveredSeqnos().size(), "not before it is due");
        long now = 10;
        while (ledger.nextRevealNs() != Long.MAX_VALUE) {
            now = ledger.nextRevealNs();
            ledger.revealPending(now);
        }
        assertEquals(gap, discoveredSeqnos().size(), "the whole gap, each seqno once");
        assertEquals(gap - 1, wide.revealed());
        assertEquals(10 + 3 * LossLedger.REVEAL_INTERVAL_NS, now, "a reveal per interval");
    }
}
