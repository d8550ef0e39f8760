package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
    /** The losses the stub loss table holds pending. */
    private final Set<PacketId> pending = new HashSet<>();

    /** Records each step with what the other steps had done by then. */
    private final Admission<Via> admission = new Admission<>(cache, outbox, new Admission.Losses() {
        @Override
        public void discoverUpTo(int origin, int group, ReceiveWindow w, long last, long nowNs) {
            steps.add("gaps " + origin + "/" + group + " up to " + last + " at " + nowNs
                    + (w == window ? "" : " in another window") + state(last + 1));
        }

        @Override
        public boolean isPending(PacketId id) {
            return pending.contains(id);
        }
    }, (id, via, nowNs) -> {
        steps.add("account " + id.seqno() + " " + via + " at " + nowNs + state(id.seqno()));
        return via == Via.REPAIR ? Delivery.NAK : Delivery.DIRECT;
    }, counters);

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
    void shouldSlideTheWindowForASeqnoFarAheadAndStillAdmitTheLossesItSkipped() {
        long far = WINDOW + 10;
        assertEquals(Admission.Outcome.NEW, admit(far, Via.DATA, 1), "a stream never wedges");
        assertEquals(List.of("gaps 4/9 up to " + (far - 1) + " at 1",
                "account " + far + " DATA at 1, resolved, cached"), steps);
        assertEquals(far - WINDOW + 1, window.base(), "slid just enough to hold the new seqno");
        assertEquals(1, counters.get(EngineCounter.WINDOW_SLIDES));
        pending.add(id(3));
        assertEquals(Admission.Outcome.NEW, admit(3, Via.REPAIR, 2), "below the window, a pending loss is new");
        assertEquals(Admission.Outcome.DUPLICATE, admit(4, Via.REPAIR, 3), "below the window and not pending");
        assertEquals(1, counters.get(EngineCounter.DUPLICATES));
        assertEquals(2, outbox.delivered.size());
    }

    @Test
    void shouldRestartTheWindowAtASeqnoBeyondTheLargestJump() {
        long jump = window.maxJump() + 5;
        assertEquals(Admission.Outcome.RESTARTED, admit(jump, Via.DATA, 1));
        assertEquals(jump + 1, window.base(), "tracked from the packet on, like a stream first seen there");
        assertEquals(1, counters.get(EngineCounter.STREAM_RESTARTS));
        assertEquals(0, counters.get(EngineCounter.WINDOW_SLIDES));
        assertEquals(1, outbox.delivered.size());
        assertEquals(Admission.Outcome.NEW, admit(jump + 2, Via.DATA, 2), "the stream goes on from there");
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
