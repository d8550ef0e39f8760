package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import org.junit.jupiter.api.Test;

class StabilityReporterTest {
    private static final int SELF = 1;
    private static final long MS = 1_000_000L;
    private final Counters counters = new Counters(Counters.set(EngineCounter.values(), NakCounter.values()));
    private final RecordingOutbox out = new RecordingOutbox();
    private final StabilityReporter reporter = new StabilityReporter(SELF, 20 * MS, counters, out);
    private final StreamTable streams = new StreamTable(1024);

    private StreamTable.Stream deliver(int origin, int group, long seqno, long nowNs) {
        StreamTable.Stream stream = streams.getOrCreate(origin, group, 0);
        stream.window().observe(seqno);
        stream.window().resolve(seqno);
        reporter.delivered(stream, nowNs);
        return stream;
    }

    @Test
    void eachStreamThatMovedReportsItsBaseOncePerIntervalToItsSender() {
        streams.joined(2, 7, 1, true, true);
        streams.joined(3, 7, 1, true, true);
        for (long s = 0; s < 5; s++) {
            deliver(2, 7, s, 0);
        }
        deliver(3, 7, 0, MS);
        assertEquals(20 * MS, reporter.nextDeadlineNs(), "due one interval after the first delivery");
        reporter.poll(19 * MS);
        assertEquals(0, out.sent.size(), "not before it is due");

        reporter.poll(20 * MS);
        assertEquals(2, out.sent.size(), "one report per stream, however many deliveries");
        PacketRefFlyweight first = new PacketRefFlyweight().wrap(out.sent.get(0).frame(), 0);
        assertEquals(FrameType.STABLE, first.type());
        assertEquals(2, out.sent.get(0).to(), "unicast to the stream's sender");
        assertEquals(2, first.origin());
        assertEquals(7, first.group());
        assertEquals(5, first.seqno(), "every seqno below 5 is resolved");
        assertEquals(1, new PacketRefFlyweight().wrap(out.sent.get(1).frame(), 0).seqno());
        assertEquals(2, counters.get(NakCounter.STABLES_SENT));
        assertEquals(Long.MAX_VALUE, reporter.nextDeadlineNs(), "idle: nothing due");

        // A delivery that does not move the base (a gap before it) sends nothing.
        deliver(2, 7, 9, 30 * MS);
        reporter.poll(50 * MS);
        assertEquals(2, out.sent.size());
    }

    @Test
    void ownStreamsAreNeverReportedAndTheIntervalMustBePositive() {
        streams.joined(SELF, 7, 1, true, true);
        deliver(SELF, 7, 0, 0);
        assertEquals(Long.MAX_VALUE, reporter.nextDeadlineNs());
        assertThrows(IllegalArgumentException.class, () -> new StabilityReporter(SELF, 0, counters, out));
    }
}
