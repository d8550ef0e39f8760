package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
