package io.ricochet.qsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * QSM's partitions follow the GMS's regions (section 3: a group spans regions, partitions subdivide a region): ten
 * engines, nodes 1..10 in group 7, partitions of at most 5, the GMS's regions the odd and the even nodes. Without
 * regions the partitions would be {1..5} and {6..10}; with them they are the two regions, led by 1 and 2.
 */
class QsmRegionsTest extends QsmNetworkTest {
    private static final List<List<Integer>> ODD_EVEN = List.of(List.of(1, 3, 5, 7, 9), List.of(2, 4, 6, 8, 10));

    QsmRegionsTest() {
        super(10);
    }

    private void startWithRegions() {
        start();
        for (int node : nodes) {
            engine(node).onRegions(GROUP, ODD_EVEN, 0);
        }
    }

    private static boolean odd(int node) {
        return node % 2 == 1;
    }

    @Test
    void shouldKeepEachPartitionsTokenInsideItsRegion() {
        startWithRegions();
        send(3, 2);
        run(60_000_000);
        assertEquals(2, engine(4).partitions(GROUP));
        int leaders = 0;
        for (Flight t : tokens) {
            if (new QsmTokenFlyweight().wrap(t.frame(), 0).level() == 1) {
                leaders++;
                assertTrue(t.from() == 1 && t.to() == 2 || t.from() == 2 && t.to() == 1, "leaders 1 and 2: " + t);
            } else {
                assertEquals(odd(t.from()), odd(t.to()), "a partition's token stays in its region: " + t);
            }
        }
        assertTrue(leaders >= 2, "the leaders' token went round: " + leaders);
        for (int node : nodes) {
            if (node != 3) {
                assertEquals(2, outbox(node).delivered.size(), "node " + node);
            }
        }
    }

    @Test
    void shouldRecoverWhatAWholeRegionMissedFromTheOtherRegionNotTheSender() {
        startWithRegions();
        drop = f -> isData(f, f.to(), 0) && !odd(f.to());     // the even region misses the sender's packet 0
        send(3, 2);
        drop = f -> false;
        run(80_000_000);
        for (int node : nodes) {
            if (node != 3) {
                assertEquals(2, outbox(node).delivered.size(), "node " + node + ": " + outbox(node).delivered);
                assertEquals(0, outbox(node).lost.size(), "node " + node);
            }
        }
        for (int node : new int[] {2, 4, 6, 8, 10}) {
            assertEquals(List.of(new PacketId(3, GROUP, 0)), outbox(node).deliveredBy(Delivery.NAK).stream()
                    .map(RecordingOutbox.Delivered::id).toList(), "node " + node);
        }
        assertTrue(count(1, QsmCounter.QSM_REPAIRS_ACROSS) > 0, "the odd region's leader pushed it across");
        assertEquals(0, count(3, QsmCounter.QSM_REPAIRS_SENT), "not the sender: the other region had it");
        assertEquals(0, total(QsmCounter.QSM_ORIGIN_ASKED));
    }

    @Test
    void shouldRelayOutOnlyWhenTheRegionsChange() {
        startWithRegions();
        RingUnit unit = new RingUnit(GROUP, 4, 5);
        for (int node : nodes) {
            unit.add(node);
        }
        assertTrue(unit.regions(ODD_EVEN));
        assertTrue(!unit.regions(List.of(List.of(1, 3, 5, 7, 9), List.of(2, 4, 6, 8, 10))), "the same regions");
        assertTrue(unit.regions(List.of()), "regions gone");
    }
}
