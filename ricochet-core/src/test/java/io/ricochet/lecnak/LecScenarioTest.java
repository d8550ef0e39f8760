package io.ricochet.lecnak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.lec.LecCounter;
import io.ricochet.nak.NakCounter;
import io.ricochet.sim.ScenarioNetwork;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.RepairFlyweight;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Ricochet's recovery, scenario by scenario, on the simulator's step-by-step mode: which frame is lost where is
 * scripted, and the assertions are on what each node delivered, how, and the counters. r = 2 and c = 3, so each
 * receiver of two packets of a group sends one repair to every other member of its region.
 */
class LecScenarioTest {
    private static final int G = 5;
    private static final int H = 6;
    private static final long MS = 1_000_000L;
    private static final int MAX_STEPS = 10_000;

    private static ScenarioNetwork network(boolean nak, int nodes) {
        RicochetConfig config = RicochetConfig.builder().r(2).c(3).nakEnabled(nak).build();
        return new ScenarioNetwork(new RicochetProtocol(config), nodes, 50_000, 7, false);
    }

    private static ScenarioNetwork fourInOneGroup(boolean nak) {
        ScenarioNetwork net = network(nak, 4);
        net.group(G, 0, 1, 2, 3);
        return net;
    }

    private static long count(ScenarioNetwork net, int node, io.ricochet.engine.Counter counter) {
        return net.engine(node).counters().get(counter);
    }

    private static ScenarioNetwork.Delivered deliveryOf(ScenarioNetwork net, int node, int origin, int group,
                                                       long seqno) {
        return net.delivered(node).stream()
                .filter(d -> d.origin() == origin && d.group() == group && d.seqno() == seqno).findFirst()
                .orElseThrow(() -> new AssertionError("node " + node + " never delivered " + origin + ":" + seqno));
    }

    @Test
    void shouldRecoverALostPacketByXorFromANeighboursRepair() {
        ScenarioNetwork net = fourInOneGroup(true);
        net.dropNext(0, 3, FrameType.DATA);

        net.send(0, G, 200);
        net.send(0, G, 300);
        net.drive(MAX_STEPS);

        ScenarioNetwork.Delivered recovered = deliveryOf(net, 3, 0, G, 0);
        assertEquals(Delivery.LEC, recovered.how());
        assertTrue(recovered.intact(), "the XOR rebuilt the sender's bytes");
        assertTrue(recovered.timeNs() < 100 * MS, "recovered before the NAK timeout");
        assertEquals(1, count(net, 3, LecCounter.RECOVERED_BY_XOR));
        assertEquals(0, count(net, 3, NakCounter.NAKS_SENT));
        for (int node = 1; node <= 3; node++) {
            assertEquals(List.of(0L, 1L), net.deliveredSeqnos(node).stream().sorted().toList(), "node " + node);
        }
    }

    @Test
    void shouldRecoverByNakWhenTheRepairsAreLostToo() {
        ScenarioNetwork net = fourInOneGroup(true);
        net.dropNext(0, 3, FrameType.DATA);
        net.dropWhen(f -> f.type() == FrameType.REPAIR && f.to() == 3);

        net.send(0, G, 200);
        net.send(0, G, 300);
        net.drive(MAX_STEPS);

        ScenarioNetwork.Delivered recovered = deliveryOf(net, 3, 0, G, 0);
        assertEquals(Delivery.NAK, recovered.how());
        assertTrue(recovered.intact());
        assertTrue(recovered.timeNs() >= 100 * MS, "after the NAK timeout");
        assertEquals(1, count(net, 3, NakCounter.NAKS_SENT));
        assertEquals(1, count(net, 0, NakCounter.RETRANSMITS_SENT));
        assertEquals(1, count(net, 3, EngineCounter.RECOVERED_BY_NAK));
        assertEquals(List.of(), net.lost(3));
    }

    @Test
    void shouldReportALossLostWithNakOff() {
        ScenarioNetwork net = fourInOneGroup(false);
        net.dropNext(0, 3, FrameType.DATA);
        net.dropWhen(f -> f.type() == FrameType.REPAIR && f.to() == 3);

        net.send(0, G, 200);
        net.send(0, G, 300);
        net.drive(MAX_STEPS);

        assertEquals(List.of(new PacketId(0, G, 0)), net.lost(3));
        assertEquals(List.of(1L), net.deliveredSeqnos(3));
        assertEquals(1, count(net, 3, EngineCounter.UNRECOVERED));
        assertEquals(0, count(net, 3, NakCounter.NAKS_SENT));
    }

    @Test
    void shouldFindATailLossFromTheSendersAnnouncement() {
        ScenarioNetwork net = fourInOneGroup(true);
        net.dropNext(0, 3, FrameType.DATA);
        net.dropWhen(f -> f.type() == FrameType.REPAIR && f.to() == 3);

        net.send(0, G, 200);
        net.drive(MAX_STEPS);

        assertEquals(List.of(new PacketId(0, G, 0)), net.discovered(3), "the SESSION frame names the lost tail");
        assertEquals(Delivery.NAK, deliveryOf(net, 3, 0, G, 0).how());
    }

    @Test
    void shouldRecoverALossFromARepairBuiltAcrossOverlappingGroups() {
        ScenarioNetwork net = network(true, 5);
        net.group(G, 0, 1, 2, 3);
        net.group(H, 1, 2, 3, 4);
        net.dropNext(0, 3, FrameType.DATA);

        net.send(0, G, 200);
        net.send(4, H, 300);
        net.drive(MAX_STEPS);

        assertEquals(Delivery.LEC, deliveryOf(net, 3, 0, G, 0).how());
        Set<Integer> groups = new TreeSet<>();
        for (ScenarioNetwork.Frame f : net.sent(FrameType.REPAIR)) {
            RepairFlyweight repair = new RepairFlyweight().wrap(f.bytes(), 0);
            if (f.to() == 3 && repair.count() == 2) {
                groups.add(repair.entryGroup(0));
                groups.add(repair.entryGroup(1));
            }
        }
        assertEquals(Set.of(G, H), groups, "node 3's region {1, 2, 3} XORs packets of both groups together");
        assertEquals(0, count(net, 3, NakCounter.NAKS_SENT));
    }
}
