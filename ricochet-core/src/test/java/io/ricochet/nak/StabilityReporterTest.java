package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.StreamListFlyweight;
import org.junit.jupiter.api.Test;

class StabilityReporterTest {
    private static final int SELF = 1;
    private static final long MS = 1_000_000L;
    private final Counters counters = new Counters(Counters.set(EngineCounter.values(), NakCounter.values()));
    private final RecordingOutbox out = new RecordingOutbox();
    private final StreamTable streams = new StreamTable(1024);
    private final StabilityReporter reporter = new StabilityReporter(SELF, 20 * MS, 0, counters, out, streams);

    private void deliver(int origin, int group, long seqno, long nowNs) {
        StreamTable.Stream stream = streams.find(origin, group);
        if (stream == null) {
            streams.joined(origin, group, 1, true, true);
            stream = streams.find(origin, group);
        }
        stream.window().observe(seqno);
        stream.window().resolve(seqno);
        reporter.delivered(stream, nowNs);
    }

    private StreamListFlyweight sent(int i) {
        byte[] frame = out.sent.get(i).frame();
        assertEquals(FrameValidator.Verdict.OK, FrameValidator.check(frame, 0, frame.length));
        return new StreamListFlyweight().wrap(frame, 0);
    }

    @Test
    void eachSenderGetsOneReportPerIntervalWithAnEntryPerGroupThatMoved() {
        for (long s = 0; s < 5; s++) {
            deliver(2, 7, s, 0);
        }
        deliver(2, 8, 0, MS);
        deliver(3, 7, 0, MS);
        assertEquals(20 * MS, reporter.nextDeadlineNs(), "due one interval after the first delivery");
        reporter.poll(19 * MS);
        assertEquals(0, out.sent.size(), "not before it is due");

        reporter.poll(20 * MS);
        assertEquals(2, out.sent.size(), "one frame per sender, however many deliveries and groups");
        StreamListFlyweight toTwo = sent(0);
        assertEquals(FrameType.STABLE, toTwo.type());
        assertEquals(2, out.sent.get(0).to(), "unicast to the sender");
        assertEquals(2, toTwo.origin());
        assertEquals(SELF, toTwo.source());
        assertEquals(2, toTwo.count());
        assertEquals(7, toTwo.group(0));
        assertEquals(5, toTwo.seqno(0), "every seqno below 5 is resolved");
        assertEquals(8, toTwo.group(1));
        assertEquals(1, toTwo.seqno(1));
        assertEquals(3, out.sent.get(1).to());
        assertEquals(2, counters.get(NakCounter.STABLES_SENT));
        assertEquals(Long.MAX_VALUE, reporter.nextDeadlineNs(), "idle: nothing due");

        // A delivery past a gap moves the progress, not the base: reported, so the sender's window moves on.
        deliver(2, 7, 9, 30 * MS);
        reporter.poll(50 * MS);
        assertEquals(3, out.sent.size());
        StreamListFlyweight progressed = sent(2);
        assertEquals(1, progressed.count());
        assertEquals(5, progressed.seqno(0), "still resolved below 5: seqnos 5 to 8 are missing");
        assertEquals(10, progressed.progress(0), "every seqno below 10 arrived or is known missing");

        // One that fills part of the gap moves neither: nothing is sent.
        deliver(2, 7, 7, 60 * MS);
        reporter.poll(80 * MS);
        assertEquals(3, out.sent.size());
    }

    @Test
    void aSenderWithMoreGroupsThanOneFrameHoldsGetsSeveralFrames() {
        int groups = StreamListFlyweight.MAX_PROGRESS_ENTRIES + 3;
        for (int g = 0; g < groups; g++) {
            deliver(2, 100 + g, 0, 0);
        }
        reporter.poll(20 * MS);
        assertEquals(2, out.sent.size());
        assertEquals(StreamListFlyweight.MAX_PROGRESS_ENTRIES, sent(0).count());
        assertEquals(3, sent(1).count());
    }

    @Test
    void ownStreamsAreNeverReportedAndTheIntervalMustBePositive() {
        deliver(SELF, 7, 0, 0);
        assertEquals(Long.MAX_VALUE, reporter.nextDeadlineNs());
        assertThrows(IllegalArgumentException.class, () -> new StabilityReporter(SELF, 0, 0, counters, out, streams));
        assertThrows(IllegalArgumentException.class,
                () -> new StabilityReporter(SELF, 20 * MS, -1, counters, out, streams));
    }

    @Test
    void aRoundIsDueEarlyOnceEveryPacketsWereDeliveredSinceTheLast() {
        StabilityReporter early = new StabilityReporter(SELF, 20 * MS, 4, counters, out, streams);
        streams.joined(2, 7, 1, true, true);
        StreamTable.Stream stream = streams.find(2, 7);
        for (long s = 0; s < 3; s++) {
            stream.window().observe(s);
            stream.window().resolve(s);
            early.delivered(stream, MS + s);
        }
        assertEquals(21 * MS, early.nextDeadlineNs(), "three packets: the interval still decides");
        stream.window().observe(3);
        stream.window().resolve(3);
        early.delivered(stream, 2 * MS);
        assertEquals(2 * MS, early.nextDeadlineNs(), "the fourth makes the round due now");
        early.poll(2 * MS);
        assertEquals(1, out.sent.size());
        assertEquals(4, sent(0).seqno(0), "every seqno below 4 is resolved");

        // The count starts again after each round, and own packets do not count.
        streams.joined(SELF, 7, 1, true, true);
        StreamTable.Stream own = streams.find(SELF, 7);
        for (long s = 4; s < 7; s++) {
            stream.window().observe(s);
            stream.window().resolve(s);
            early.delivered(stream, 3 * MS);
            early.delivered(own, 3 * MS);
        }
        assertEquals(23 * MS, early.nextDeadlineNs(), "three since the round: due an interval after the first");
    }

    @Test
    void aStreamReplacedByARestartedSendersIsNotReported() {
        for (long s = 0; s < 50; s++) {
            deliver(2, 7, s, 0);
        }
        // Sender 2 restarts (another incarnation) before the round: its seqnos start again at 0, so "resolved below
        // 50" of the old stream must not reach it.
        assertTrue(streams.joined(2, 7, 2, false, true) != null, "the old stream was replaced");
        reporter.poll(20 * MS);
        assertEquals(0, out.sent.size());
    }
}
