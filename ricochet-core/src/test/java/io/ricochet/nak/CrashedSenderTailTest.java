package io.ricochet.nak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.fec.FecConfig;
import io.ricochet.fec.FecProtocol;
import io.ricochet.fec.FecRepairFlyweight;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.sim.ScenarioNetwork;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A sender that crashes before announcing its stream's end: a member that missed the last packets learns how far
 * the stream went from the other members' TAIL frames when the GMS reports the failure, and reports the missing
 * packets lost. Without them it would never know they existed. Both protocols that NAK: Ricochet and
 * sender-based FEC.
 */
class CrashedSenderTailTest {
    private static final int G = 4;
    private static final int SENT = 10;
    private static final long FIRST_MISSED = 7;

    static Stream<Arguments> protocols() {
        // No session announcements: the sender crashes before its stream goes idle.
        return Stream.of(
                Arguments.of("ricochet", new RicochetProtocol(RicochetConfig.builder().sessionDelayNs(0).r(8).build()),
                        FrameType.REPAIR),
                Arguments.of("fec", new FecProtocol(FecConfig.builder().r(8).c(2).build()), FecRepairFlyweight.TYPE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void shouldReportTheUnannouncedTailOfACrashedSenderLost(String name, ProtocolFactory protocol, int repairType) {
        ScenarioNetwork net = new ScenarioNetwork(protocol, 3, 50_000, 5, false);
        net.group(G, 0, 1, 2);
        AtomicBoolean crashed = new AtomicBoolean();
        DataFlyweight data = new DataFlyweight();
        // After the crash nothing leaves node 0; before it node 2 misses the last packets and every repair.
        net.dropWhen(frame -> crashed.get() && frame.from() == 0 || frame.to() == 2 && (frame.type() == repairType
                || frame.type() == FrameType.DATA && data.wrap(frame.bytes(), 0).seqno() >= FIRST_MISSED));
        for (int i = 0; i < SENT; i++) {
            net.send(0, G, 64);
        }
        net.drive(100_000);
        assertEquals(SENT, net.deliveredSeqnos(1).size());
        assertEquals(FIRST_MISSED, net.deliveredSeqnos(2).size());
        assertTrue(net.lost(2).isEmpty(), "node 2 cannot know yet that anything is missing");

        crashed.set(true);
        net.membership(1, MembershipEvent.fail(G, 0));
        net.membership(2, MembershipEvent.fail(G, 0));
        net.drive(1_000_000);

        assertEquals(1, net.engine(1).counters().get(NakCounter.TAILS_SENT));
        assertEquals(1, net.engine(2).counters().get(NakCounter.TAILS_RECEIVED));
        Set<Long> lost = new HashSet<>();
        for (PacketId id : net.lost(2)) {
            assertEquals(0, id.origin());
            assertTrue(lost.add(id.seqno()), "reported once");
        }
        assertEquals(Set.of(7L, 8L, 9L), lost, "the tail it never saw, each reported lost");
        assertFalse(net.deliveredSeqnos(2).stream().anyMatch(lost::contains));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void shouldNotTakeTheTailOfAFailedRunForTheStreamOfTheSendersNextRun(String name, ProtocolFactory protocol,
                                                                         int repairType) {
        ScenarioNetwork net = new ScenarioNetwork(protocol, 3, 50_000, 5, false);
        net.group(G, 0, 1, 2);
        AtomicBoolean crashed = new AtomicBoolean();
        net.dropWhen(frame -> crashed.get() && frame.from() == 0);
        for (int i = 0; i < SENT; i++) {
            net.send(0, G, 64);
        }
        net.drive(100_000);
        assertEquals(SENT, net.deliveredSeqnos(2).size());

        // Node 2 learns of the failure and of the sender's next run (a restarted process: its stream starts again
        // at 0) before node 1's TAIL of the failed run, which names seqno 9, reaches it.
        crashed.set(true);
        net.membership(2, MembershipEvent.fail(G, 0));
        net.membership(2, new MembershipEvent(MembershipEvent.Kind.JOIN, G, 0, 5, 0));
        net.membership(1, MembershipEvent.fail(G, 0));
        net.drive(1_000_000);

        assertEquals(1, net.engine(2).counters().get(NakCounter.TAILS_RECEIVED));
        assertEquals(1, net.engine(2).counters().get(io.ricochet.engine.EngineCounter.OUT_OF_WINDOW),
                "the failed run's TAIL refused");
        assertTrue(net.lost(2).isEmpty(), "nothing of the new run reported lost: it has sent nothing yet");
        assertEquals(0, net.engine(2).counters().get(NakCounter.NAKS_SENT), "no NAK for seqnos never sent");
    }
}
