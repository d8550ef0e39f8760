package io.ricochet.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.ricochet.RicochetConfig;
import io.ricochet.ricochet.RicochetProtocol;
import io.ricochet.wire.FrameType;
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
}
