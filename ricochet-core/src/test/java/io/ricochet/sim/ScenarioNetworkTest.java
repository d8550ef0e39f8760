package io.ricochet.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.wire.FrameType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioNetworkTest {
    private static final int G = 3;

    private static ScenarioNetwork ricochet(long latencyNs) {
        ScenarioNetwork net = new ScenarioNetwork(new RicochetProtocol(RicochetConfig.builder().build()), 3,
                latencyNs, 1, false);
        net.group(G, 0, 1, 2);
        return net;
    }

    @Test
    void shouldDeliverAfterTheLatencyOnlyWhenTimeReachesIt() {
        ScenarioNetwork net = ricochet(1_000);

        net.send(0, G, 64);
        net.runUntil(999);
        assertEquals(List.of(), net.deliveredSeqnos(1));
        net.runUntil(1_000);

        assertEquals(List.of(0L), net.deliveredSeqnos(1));
        assertEquals(List.of(0L), net.deliveredSeqnos(2));
        ScenarioNetwork.Delivered d = net.delivered(1).get(0);
        assertEquals(Delivery.DIRECT, d.how());
        assertEquals(1_000, d.timeNs());
        assertTrue(d.intact());
    }

    @Test
    void shouldDropTheNextMatchingFrameOnceAndLogItAnyway() {
        ScenarioNetwork net = ricochet(0);
        net.dropNext(0, 2, FrameType.DATA);

        net.send(0, G, 64);
        net.send(0, G, 64);
        net.runUntil(0);

        assertEquals(List.of(0L, 1L), net.deliveredSeqnos(1));
        assertEquals(List.of(1L), net.deliveredSeqnos(2));
        assertEquals(2, net.sent(FrameType.DATA).size(), "the wire log has every frame sent, dropped or not");
        assertEquals(-1, net.sent(FrameType.DATA).get(0).to(), "a multicast");
    }

    @Test
    void shouldStopWhenNothingIsLeftAndFailPastTheStepBound() {
        ScenarioNetwork quiet = ricochet(0);
        quiet.send(0, G, 64);
        quiet.drive(1_000);
        assertTrue(quiet.now() > 0, "the idle-stream announcement ran");

        ScenarioNetwork busy = ricochet(0);
        busy.send(0, G, 64);
        assertThrows(IllegalStateException.class, () -> busy.drive(2), "more than two events are due");
    }

    @Test
    void shouldRefuseASendNumberedOtherwiseThanItsOwnCount() {
        ScenarioNetwork net = ricochet(0);
        net.engine(0).send(G, new byte[8], 0, 8, 0);

        assertThrows(IllegalStateException.class, () -> net.send(0, G, 8));
    }

    @Test
    void shouldSendTheTestsOwnBytesAndShowThemToAnObserver() {
        ScenarioNetwork net = ricochet(1_000);
        List<String> seen = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        net.observe(2, new ScenarioNetwork.Observer() {
            @Override
            public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length,
                                Delivery how) {
                seen.add("D" + origin + ":" + group + ":" + seqno + ":" + how);
                bytes.add(java.util.Arrays.copyOfRange(payload, offset, offset + length));
            }

            @Override
            public void lost(int origin, int group, long seqno) {
                seen.add("L" + origin + ":" + group + ":" + seqno);
            }
        });

        assertEquals(0, net.send(0, G, new byte[] {1, 2, 3}));
        assertEquals(1, net.send(0, G, 16));
        assertEquals(2, net.send(0, G, new byte[] {4}));
        net.runUntil(1_000);

        assertEquals(List.of("D0:" + G + ":0:DIRECT", "D0:" + G + ":1:DIRECT", "D0:" + G + ":2:DIRECT"), seen);
        assertArrayEquals(new byte[] {1, 2, 3}, bytes.get(0));
        assertArrayEquals(new byte[] {4}, bytes.get(2));
        assertFalse(net.delivered(2).get(0).intact(), "the test's bytes are not Payloads'");
        assertTrue(net.delivered(2).get(1).intact());
        assertEquals(3, net.delivered(1).size(), "recorded as before; node 1 has no observer");
    }

    @Test
    void shouldDeliverADuplicateLateAndADroppedOneOnlyLate() {
        ScenarioNetwork net = ricochet(1_000);
        net.duplicateWhen(f -> f.type() == FrameType.DATA && f.to() == 1, 5_000);
        net.dropNext(0, 1, FrameType.DATA);

        net.send(0, G, 64);
        net.send(0, G, 64);
        net.runUntil(1_000);
        assertEquals(List.of(1L), net.deliveredSeqnos(1), "seqno 0 was dropped; its copy comes later");
        net.runUntil(6_000);

        assertEquals(List.of(1L, 0L), net.deliveredSeqnos(1), "reordered; the late copy of 1 a duplicate");
        assertEquals(1, net.engine(1).counters().get(io.ricochet.engine.EngineCounter.DUPLICATES));
        assertEquals(List.of(0L, 1L), net.deliveredSeqnos(2), "node 2's frames were not duplicated");
        assertEquals(2, net.sent(FrameType.DATA).size(), "the wire log has each frame once");
    }

    @Test
    void shouldRefuseANegativeDuplicateDelay() {
        ScenarioNetwork net = ricochet(0);
        assertThrows(IllegalArgumentException.class, () -> net.duplicateWhen(f -> true, -1));
    }
}
