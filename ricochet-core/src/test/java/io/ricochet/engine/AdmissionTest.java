package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared admission of a data packet, with the protocol's parts played by recording stubs. */
class AdmissionTest {
    private static final int ORIGIN = 4;
    private static final int GROUP = 9;
    private static final int WINDOW = 64;

    private enum Via { DATA, REPAIR }

    private final Counters counters = new Counters(Counters.set(EngineCounter.values()));
    private final PacketStore cache = new PacketStore(16, 32, counters, EngineCounter.DATA_CACHE_EVICTIONS);
    private final RecordingOutbox outbox = new RecordingOutbox();
    private final ReceiveWindow window = new ReceiveWindow(0, WINDOW);
    private final List<String> steps = new ArrayList<>();

    /** Records each step with what the other steps had done by then. */
    private final Admission<Via> admission = new Admission<>(cache, outbox,
            (origin, group, w, last, nowNs) -> steps.add("gaps " + origin + "/" + group + " up to " + last
                    + " at " + nowNs + (w == window ? "" : " in another window") + state(last + 1)),
            (id, via, nowNs) -> {
                steps.add("account " + id.seqno() + " " + via + " at " + nowNs + state(id.seqno()));
                return via == Via.REPAIR ? Delivery.NAK : Delivery.DIRECT;
            });

    private String state(long seqno) {
        return (window.isResolved(seqno) ? ", resolved" : "")
                + (cache.find(id(seqno)) >= 0 ? ", cached" : "")
                + (outbox.delivered.isEmpty() ? "" : ", delivered");
    }

    private static PacketId id(long seqno) {
        return new PacketId(ORIGIN, GROUP, seqno);
    }

    private Admission.Outcome admit(long seqno, Via via, long nowNs) {
        byte[] frame = {0, 0, 1, 2, (byte) seqno};
        return admission.admit(window, id(seqno), frame, 2, 3, via, nowNs);
    }

    @Test
    void shouldRevealTheGapThenResolveCacheAccountAndDeliverANewPacket() {
        assertEquals(Admission.Outcome.NEW, admit(3, Via.REPAIR, 100));
        assertEquals(List.of("gaps 4/9 up to 2 at 100", "account 3 REPAIR at 100, resolved, cached"), steps);
        assertEquals(1, outbox.delivered.size());
        RecordingOutbox.Delivered delivered = outbox.delivered.get(0);
        assertEquals(id(3), new PacketId(delivered.origin(), delivered.group(), delivered.seqno()));
        assertArrayEquals(new byte[] {1, 2, 3}, delivered.payload());
        assertEquals(Delivery.NAK, delivered.how(), "as the accounting said");
        int slot = cache.find(id(3));
        assertEquals(3, cache.length(slot));
        assertEquals(3, cache.payload(slot)[2]);
        assertTrue(window.isResolved(3));
        assertFalse(window.isResolved(2), "discovering the gap is the protocol's business");
    }

    @Test
    void shouldDropWhatIsResolvedWithoutAnyStep() {
        assertEquals(Admission.Outcome.NEW, admit(0, Via.DATA, 1));
        steps.clear();
        assertEquals(Admission.Outcome.DUPLICATE, admit(0, Via.DATA, 2), "below the window's base now");
        admit(5, Via.DATA, 3);
        steps.clear();
        assertEquals(Admission.Outcome.DUPLICATE, admit(5, Via.REPAIR, 4), "resolved above the base");
        assertEquals(List.of(), steps);
        assertEquals(2, outbox.delivered.size());
    }

    @Test
    void shouldDropASeqnoTooFarAheadWithoutAnyStep() {
        assertEquals(Admission.Outcome.OUT_OF_WINDOW, admit(WINDOW, Via.DATA, 1));
        assertEquals(List.of(), steps);
        assertEquals(List.of(), outbox.delivered);
        assertEquals(-1, cache.find(id(WINDOW)));
        assertEquals(-1, window.highest(), "not even known to exist");
        assertEquals(Admission.Outcome.NEW, admit(WINDOW - 1, Via.DATA, 2), "the last seqno the window tracks");
    }

    @Test
    void shouldCheckWithoutChangingTheWindow() {
        window.resolve(0);
        window.resolve(2);
        assertEquals(Admission.Outcome.DUPLICATE, Admission.check(window, 0));
        assertEquals(Admission.Outcome.NEW, Admission.check(window, 1));
        assertEquals(Admission.Outcome.DUPLICATE, Admission.check(window, 2));
        assertEquals(Admission.Outcome.NEW, Admission.check(window, WINDOW));
        assertEquals(Admission.Outcome.OUT_OF_WINDOW, Admission.check(window, WINDOW + 1));
        assertEquals(1, window.base());
        assertEquals(2, window.highest());
    }

    @Test
    void shouldAcceptOnlyWellFormedDataOfAGroupThisNodeIsIn() {
        DataFlyweight own = new DataFlyweight().wrap(Frames.data(2, 5, 0), 0);
        DataFlyweight relayed = new DataFlyweight()
                .wrap(Frames.data(FrameType.DATA, 3, Frames.id(2, 5, 1)), 0);
        DataFlyweight retransmitted = new DataFlyweight()
                .wrap(Frames.data(FrameType.RETRANSMIT, 2, Frames.id(2, 5, 2)), 0);

        assertTrue(Admission.acceptable(own, false, true, 1024, counters));
        assertFalse(Admission.acceptable(relayed, false, true, 1024, counters), "DATA must come from its origin");
        assertFalse(Admission.acceptable(own, false, true, 10, counters), "payload longer than the maximum");
        assertEquals(2, counters.get(EngineCounter.INVALID_PACKETS));
        assertFalse(Admission.acceptable(own, false, false, 1024, counters));
        assertEquals(1, counters.get(EngineCounter.NON_MEMBER));
        assertTrue(Admission.acceptable(retransmitted, true, true, 1024, counters));
        assertEquals(1, counters.get(EngineCounter.RETRANSMITS_RECEIVED));
    }
}
