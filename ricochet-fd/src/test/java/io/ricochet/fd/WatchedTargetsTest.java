package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.message.WatchList;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How a detector's static targets and the GMS's watch list make its targets ({@link WatchedTargets}): the static ones
 * are always there, a listed daemon that cannot be told apart from another target is left out and said so.
 */
class WatchedTargetsTest {
    /** "a".hashCode(): this detector's wire id. */
    private static final int OWN_WIRE_ID = 97;
    /** "b".hashCode(): the wire id of the watched detector b. */
    private static final int DETECTOR_B_WIRE_ID = 98;

    private static InetSocketAddress local(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    private static WatchList.Target listed(int node, int rack, int port) {
        return new WatchList.Target(node, rack, local(port));
    }

    private final WatchedTargets watched = new WatchedTargets(OWN_WIRE_ID,
            List.of(Target.daemon(1, local(7501)), Target.detector("b", local(7201))));

    @Test
    void shouldWatchTheStaticTargetsBesideTheListedDaemons() {
        WatchedTargets.Merge merge = watched.merge(new WatchList(List.of(listed(2, 1, 7502), listed(5, 3, 7505))));

        assertEquals(Map.of(1, Target.daemon(1, local(7501)), DETECTOR_B_WIRE_ID, Target.detector("b", local(7201)),
                2, Target.daemon(2, local(7502)), 5, Target.daemon(5, local(7505))), merge.targets());
        assertEquals(3, merge.daemons());
        assertEquals(2, merge.listed());
        assertEquals(Set.of(1, 3), merge.racks());
        assertEquals(List.of(), merge.problems());
        assertEquals("watching 3 daemons (2 from the GMS: racks 1, 3)", merge.describe());
    }

    @Test
    void shouldKeepTheStaticTargetsWhenTheListIsEmpty() {
        WatchedTargets.Merge merge = watched.merge(new WatchList(List.of()));

        assertEquals(Set.of(1, DETECTOR_B_WIRE_ID), merge.targets().keySet());
        assertEquals("watching 1 daemon (0 from the GMS)", merge.describe());
        assertEquals("watching 0 daemons (0 from the GMS)",
                new WatchedTargets(OWN_WIRE_ID, List.of()).merge(new WatchList(List.of())).describe());
    }

    @Test
    void shouldWatchADaemonAlsoInMembersOnceAtItsMembersAddress() {
        WatchedTargets.Merge merge = watched.merge(new WatchList(List.of(listed(1, 4, 7601))));

        assertEquals(Target.daemon(1, local(7501)), merge.targets().get(1));
        assertEquals(1, merge.daemons());
        assertEquals("watching 1 daemon (1 from the GMS: rack 4)", merge.describe());
        assertEquals(1, merge.problems().size(), merge.problems().toString());
        assertTrue(merge.problems().get(0).contains("is watched at its --members address 127.0.0.1:7501"),
                merge.problems().get(0));
        assertEquals(List.of(), watched.merge(new WatchList(List.of(listed(1, 4, 7501)))).problems(),
                "the same address: nothing to say");
    }

    @Test
    void shouldLeaveOutListedDaemonsItCannotTellApart() {
        WatchedTargets.Merge merge = watched.merge(new WatchList(List.of(listed(7, 2, 0), listed(OWN_WIRE_ID, 2, 7597),
                listed(DETECTOR_B_WIRE_ID, 2, 7598), listed(99, 2, 7599))));

        assertEquals(Set.of(1, DETECTOR_B_WIRE_ID, 99), merge.targets().keySet());
        assertEquals(Target.detector("b", local(7201)), merge.targets().get(DETECTOR_B_WIRE_ID));
        assertEquals("watching 2 daemons (1 from the GMS: rack 2)", merge.describe());
        List<String> problems = merge.problems();
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("node 7 of rack 2 (127.0.0.1:0) listed by the GMS is not watched: it "
                + "registered no heartbeat port"), problems.get(0));
        assertTrue(problems.get(1).contains("this detector's wire id"), problems.get(1));
        assertTrue(problems.get(2).contains("the wire id of detector b (127.0.0.1:7201)"), problems.get(2));
    }
}
