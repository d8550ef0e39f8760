package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionAnnouncerTest {
    private static final long MS = 1_000_000L;
    private static final long DELAY = 50 * MS;

    /** Announcements heard, as "group:seqno@ms". */
    private final List<String> heard = new ArrayList<>();

    /** Polls every millisecond from {@code fromMs} to {@code toMs}, as the engine's timer would. */
    private void run(SessionAnnouncer announcer, long fromMs, long toMs) {
        for (long ms = fromMs; ms <= toMs; ms++) {
            announcer.poll(ms * MS, (group, seqno, nowNs) -> heard.add(group + ":" + seqno + "@" + nowNs / MS));
        }
    }

    @Test
    void shouldAnnounceAnIdleStreamsTailFiveTimesAtDoublingIntervals() {
        SessionAnnouncer announcer = new SessionAnnouncer(DELAY);
        announcer.sent(7, 41, 0);
        run(announcer, 0, 5_000);
        assertEquals(List.of("7:41@50", "7:41@150", "7:41@350", "7:41@750", "7:41@1550"), heard);
        assertEquals(Long.MAX_VALUE, announcer.nextDeadlineNs(), "nothing left to announce");
    }

    @Test
    void shouldStartOverWhenTheStreamSendsAgain() {
        SessionAnnouncer announcer = new SessionAnnouncer(DELAY);
        announcer.sent(7, 41, 0);
        run(announcer, 0, 200);
        announcer.sent(7, 42, 200 * MS);
        run(announcer, 201, 5_000);
        assertEquals(List.of("7:41@50", "7:41@150", "7:42@250", "7:42@350", "7:42@550", "7:42@950", "7:42@1750"),
                heard);
    }

    @Test
    void shouldStayQuietWhileAStreamIsBusyAndAfterItsGroupIsLeft() {
        SessionAnnouncer announcer = new SessionAnnouncer(DELAY);
        for (long ms = 0; ms < 1_000; ms += 10) {
            announcer.sent(1, ms, ms * MS);
            run(announcer, ms, ms + 9);
        }
        announcer.sent(2, 5, 1_000 * MS);
        announcer.left(2);
        run(announcer, 1_000, 1_039);
        assertEquals(List.of(), heard, "busy stream and left group: nothing");
        run(announcer, 1_040, 1_050);
        assertEquals(List.of("1:990@1040"), heard);
    }

    @Test
    void shouldAnnounceEarlyOnlyAStreamThatWaitedAtLeastHalfItsWait() {
        SessionAnnouncer announcer = new SessionAnnouncer(DELAY);
        SessionAnnouncer.Handler hear = (group, seqno, nowNs) -> heard.add(group + ":" + seqno + "@" + nowNs / MS);
        announcer.sent(1, 10, 0);
        assertFalse(announcer.announceEarly(1, 24 * MS, hear), "24 of its 50 ms");
        assertTrue(announcer.announceEarly(1, 25 * MS, hear), "25 of 50");
        assertFalse(announcer.announceEarly(1, 25 * MS, hear), "just announced: the repeat waits 100 ms from now");
        assertFalse(announcer.announceEarly(1, 74 * MS, hear));
        assertTrue(announcer.announceEarly(1, 75 * MS, hear), "50 of its 100");
        assertFalse(announcer.announceEarly(2, 75 * MS, hear), "a group it never sent to");
        run(announcer, 76, 5_000);
        assertEquals(List.of("1:10@25", "1:10@75", "1:10@275", "1:10@675", "1:10@1475"), heard,
                "the schedule goes on from the early announcements, five in all");
        assertFalse(announcer.announceEarly(1, 5_000 * MS, hear), "all five made");
    }

    @Test
    void shouldNotAnnounceEarlyAStreamThatSentAgainOrWhoseGroupWasLeft() {
        SessionAnnouncer announcer = new SessionAnnouncer(DELAY);
        SessionAnnouncer.Handler hear = (group, seqno, nowNs) -> heard.add(group + ":" + seqno + "@" + nowNs / MS);
        announcer.sent(1, 10, 0);
        announcer.sent(1, 11, 20 * MS);
        assertFalse(announcer.announceEarly(1, 40 * MS, hear), "20 of 50 since its last send");
        announcer.sent(2, 5, 0);
        announcer.left(2);
        assertFalse(announcer.announceEarly(2, 40 * MS, hear));
        run(announcer, 0, 70);
        assertEquals(List.of("1:11@70"), heard, "the stale queue entries are skipped");
    }
}
