package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Frames;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.List;
import org.junit.jupiter.api.Test;

class NakRequesterTest {
    private static final int SELF = 1;
    private static final int SENDER = 4;
    private static final int G = 9;
    private static final long MS = 1_000_000L;

    private final Counters counters = new Counters(Counters.set(EngineCounter.values(), NakCounter.values()));
    private final RecordingOutbox out = new RecordingOutbox();
    private final StreamTable streams = new StreamTable(1024);

    private NakRequester requester(boolean nak, int rateLimit) {
        return new NakRequester(SELF, new NakSettings(nak, 100 * MS, 50 * MS, 3, 200 * MS, 64, rateLimit), counters,
                out, streams, 1024);
    }

    /** A stream of SENDER in G whose seqno 0 arrived and 1, 2 were found missing at time 0. */
    private StreamTable.Stream gapAtZero(NakRequester requester) {
        StreamTable.Stream stream = streams.getOrCreate(SENDER, G, 0);
        stream.window().resolve(0);
        requester.discoverUpTo(SENDER, G, stream.window(), 2, 0);
        return stream;
    }

    @Test
    void shouldNakEachLossAfterTheTimeoutThenRetryThenGiveUp() {
        NakRequester requester = requester(true, 0);
        StreamTable.Stream stream = gapAtZero(requester);
        assertEquals(2, requester.pending());
        assertEquals(100 * MS, requester.nextDeadlineNs());

        requester.poll(100 * MS);
        assertEquals(2, out.sentOfType(FrameType.NAK).size());
        PacketRefFlyweight nak = new PacketRefFlyweight().wrap(out.sent.get(0).frame(), 0);
        assertEquals(SENDER, out.sent.get(0).to());
        assertEquals(SELF, nak.source());
        assertEquals(SENDER, nak.origin());
        assertEquals(1, nak.seqno());

        requester.poll(150 * MS);
        assertEquals(4, counters.get(NakCounter.NAKS_SENT), "first retry after the retry delay");
        requester.poll(200 * MS);
        assertEquals(4, counters.get(NakCounter.NAKS_SENT), "unanswered: the next waits twice as long");
        requester.poll(250 * MS);
        assertEquals(6, counters.get(NakCounter.NAKS_SENT));
        requester.poll(449 * MS);
        assertEquals(0, out.lost.size(), "the last NAK gets four retry delays to be answered");
        requester.poll(450 * MS);

        assertEquals(0, requester.pending());
        assertEquals(2, out.lost.size());
        assertEquals(2, counters.get(EngineCounter.UNRECOVERED));
        assertTrue(stream.window().isResolved(1) && stream.window().isResolved(2), "given up means resolved");
    }

    @Test
    void shouldPutOffAGiveUpWhoseTimerRanLateBecauseTheNodeWasNotRunning() {
        NakRequester requester = requester(true, 0);
        StreamTable.Stream stream = gapAtZero(requester);
        requester.poll(100 * MS);
        requester.poll(150 * MS);
        requester.poll(250 * MS);
        assertEquals(6, counters.get(NakCounter.NAKS_SENT));
        requester.poll(2_000 * MS);
        assertEquals(2, requester.pending(), "starved for 1.5 s: the answers may be waiting unread");
        assertEquals(0, out.lost.size());
        requester.resolve(new PacketId(SENDER, G, 1));
        requester.poll(2_050 * MS);
        assertEquals(List.of(new PacketId(SENDER, G, 2)), out.lost, "given up after one on-time wait");
        assertEquals(0, requester.pending());
        assertTrue(stream.window().isResolved(2));
        assertEquals(6, counters.get(NakCounter.NAKS_SENT), "no NAK beyond the bound");
    }

    @Test
    void shouldStopAskingForARecoveredLoss() {
        NakRequester requester = requester(true, 0);
        gapAtZero(requester);

        assertTrue(requester.resolve(new PacketId(SENDER, G, 1)));
        assertFalse(requester.resolve(new PacketId(SENDER, G, 1)));
        requester.poll(100 * MS);

        assertEquals(1, out.sentOfType(FrameType.NAK).size());
        assertEquals(2, new PacketRefFlyweight().wrap(out.sent.get(0).frame(), 0).seqno());
    }

    @Test
    void shouldGiveUpAtOnceOnGone() {
        NakRequester requester = requester(true, 0);
        gapAtZero(requester);

        PacketId id = new PacketId(SENDER, G, 2);
        requester.onGone(new PacketRefFlyweight().wrap(Frames.ref(FrameType.GONE, SENDER, id), 0), 10 * MS);

        assertEquals(1, counters.get(NakCounter.GONE_RECEIVED));
        assertEquals(1, out.lost.size());
        assertEquals(2, out.lost.get(0).seqno());
        assertEquals(1, requester.pending());
    }

    @Test
    void shouldGiveUpWithoutNakingWhenNakIsOff() {
        NakRequester requester = requester(false, 0);
        gapAtZero(requester);

        requester.poll(100 * MS);
        assertEquals(0, out.lost.size(), "with NAK off the give-up delay applies, not the NAK timeout");
        requester.poll(200 * MS);

        assertEquals(0, out.sent.size());
        assertEquals(2, out.lost.size());
    }

    @Test
    void shouldSpendAnAttemptWhenTheRateLimitRefusesANak() {
        NakRequester requester = requester(true, 1);
        gapAtZero(requester);

        requester.poll(100 * MS);

        assertEquals(1, counters.get(NakCounter.NAKS_SENT));
        assertEquals(1, counters.get(NakCounter.NAKS_RATE_LIMITED));
    }

    @Test
    void shouldReportTheLossesOfARestartedSendersStreamLost() {
        NakRequester requester = requester(true, 0);
        gapAtZero(requester);

        requester.forgetStream(SENDER, G);

        assertEquals(0, requester.pending());
        assertEquals(2, out.lost.size());
        requester.poll(500 * MS);
        assertEquals(0, out.sent.size(), "forgotten losses are never NAK-ed");
    }
}
