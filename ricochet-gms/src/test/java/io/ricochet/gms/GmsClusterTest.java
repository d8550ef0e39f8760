package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.verdict.GmsFailureReporter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two GMS partitions and three {@link GmsClient}s in one process, on 127.0.0.1. Even groups belong to partition
 * 0, odd groups to partition 1. Every wait polls with a 10 s deadline; nothing asserts on time.
 */
class GmsClusterTest {
    private static final int EVEN = 10;
    private static final int ODD = 11;
    private GmsCluster cluster;
    private final RecordingListener one = new RecordingListener();
    private final RecordingListener two = new RecordingListener();
    private final RecordingListener three = new RecordingListener();

    @BeforeEach
    void setUp() {
        cluster = new GmsCluster(2);
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void shouldPushJoinsAndLeavesToTheMembersWithTheirAddresses() {
        cluster.client(1, one, EVEN, ODD);
        Await.until("node 1 in both groups", () -> one.hasView(EVEN, Set.of(1)) && one.hasView(ODD, Set.of(1)));
        GmsClient clientTwo = cluster.client(2, two, EVEN);
        cluster.client(3, three, ODD);

        Await.until(() -> "node 1 hears 2 and 3 join: " + one,
                () -> one.hasEvent(MemberEventKind.JOIN, EVEN, 2) && one.hasEvent(MemberEventKind.JOIN, ODD, 3));
        assertEquals(RecordingListener.unicast(2), one.event(MemberEventKind.JOIN, EVEN, 2).orElseThrow().address());
        assertEquals(RecordingListener.unicast(3), one.event(MemberEventKind.JOIN, ODD, 3).orElseThrow().address());
        Await.until("the joiners' views", () -> two.hasView(EVEN, Set.of(1, 2)) && three.hasView(ODD, Set.of(1, 3)));
        assertTrue(two.hasEvent(MemberEventKind.JOIN, EVEN, 2), "the joiner hears its own JOIN");
        GroupView view = two.lastView(EVEN).orElseThrow();
        assertEquals(RecordingListener.unicast(1), view.members().get(1));
        assertEquals(new InetSocketAddress("239.255.0.10", 9100), view.multicast());
        assertEquals(one.event(MemberEventKind.JOIN, EVEN, 2).orElseThrow().viewId(), view.viewId());

        clientTwo.leave(EVEN);
        Await.until("node 1 and the leaver hear the LEAVE",
                () -> one.hasEvent(MemberEventKind.LEAVE, EVEN, 2) && two.hasEvent(MemberEventKind.LEAVE, EVEN, 2));
        assertEquals(view.viewId() + 1, one.event(MemberEventKind.LEAVE, EVEN, 2).orElseThrow().viewId());
        assertTrue(three.events().stream().noneMatch(e -> e.group() == EVEN), "node 3 is not in the even group");
    }

    @Test
    void shouldGiveAReconnectingDaemonTheSnapshotOfItsGroups() {
        cluster.client(1, one, EVEN);
        GmsClient first = cluster.client(2, two, EVEN);
        Await.until("both in", () -> one.hasView(EVEN, Set.of(1)) && two.hasView(EVEN, Set.of(1, 2)));
        long viewId = two.lastView(EVEN).orElseThrow().viewId();
        first.close();

        RecordingListener again = new RecordingListener();
        cluster.client(2, again, EVEN);
        Await.until(() -> "snapshot after reconnect: " + again, () -> again.hasView(EVEN, Set.of(1, 2)));
        assertEquals(viewId, again.lastView(EVEN).orElseThrow().viewId(), "a dropped connection changed nothing");
        assertEquals(1, one.count(MemberEventKind.JOIN, EVEN, 2), "the same incarnation is not announced again");
        assertEquals(0, one.count(MemberEventKind.LEAVE, EVEN, 2) + one.count(MemberEventKind.FAIL, EVEN, 2));
    }

    @Test
    void shouldAnnounceADaemonThatRestartedBeforeDetectionWithItsNewIncarnation() {
        cluster.client(1, one, EVEN);
        GmsClient first = cluster.client(2, two, EVEN);
        Await.until("both in", () -> one.hasView(EVEN, Set.of(1)) && two.hasView(EVEN, Set.of(1, 2)));
        long viewId = two.lastView(EVEN).orElseThrow().viewId();
        first.close();

        long restarted = RecordingListener.incarnation(2) + 1;
        RecordingListener again = new RecordingListener();
        cluster.client(2, restarted, again, EVEN);
        Await.until(() -> "node 1 hears the new process join: " + one,
                () -> one.count(MemberEventKind.JOIN, EVEN, 2) == 2);
        MemberEvent join = one.events(MemberEventKind.JOIN, EVEN, 2).get(1);
        assertEquals(restarted, join.incarnation());
        assertEquals(viewId + 1, join.viewId());
        // The JOIN event can carry the new view id before the GROUP_VIEW itself arrives: wait for the view.
        Await.until(() -> "the new process's view: " + again, () -> again.viewId(EVEN) == viewId + 1
                && again.lastView(EVEN).map(v -> v.viewId() == viewId + 1).orElse(false));
        assertEquals(Map.of(1, RecordingListener.incarnation(1), 2, restarted),
                again.lastView(EVEN).orElseThrow().incarnations());
        assertEquals(Set.of(1, 2), one.members(EVEN));
    }

    @Test
    void shouldRecoverADaemonThatRestartedWhileFailedOnlyIntoTheGroupsItJoinsAgain() {
        int evenToo = EVEN + 2;
        cluster.client(1, one, EVEN, ODD);
        GmsClient first = cluster.client(2, two, EVEN, ODD);
        Await.until("views", () -> two.hasView(EVEN, Set.of(1, 2)) && two.hasView(ODD, Set.of(1, 2)));
        GmsFailureReporter reporter = cluster.track(new GmsFailureReporter(cluster.replicas(), cluster.group));
        reporter.failed(2);
        Await.until("FAIL in both groups",
                () -> one.hasEvent(MemberEventKind.FAIL, EVEN, 2) && one.hasEvent(MemberEventKind.FAIL, ODD, 2));
        first.close();

        long restarted = RecordingListener.incarnation(2) + 1;
        RecordingListener again = new RecordingListener();
        cluster.client(2, restarted, again, evenToo, ODD);
        Await.until(() -> "both joins wait for the recovery: " + again, () -> again.errors.size() == 2);
        assertTrue(again.errors.stream().allMatch(e -> e.contains(":" + ErrorCode.NODE_FAILED + ":")),
                again::toString);
        reporter.recovered(2);

        Await.until(() -> "the new process is in its own groups: " + again,
                () -> again.hasView(evenToo, Set.of(2)) && again.hasView(ODD, Set.of(1, 2)));
        assertTrue(again.events().stream().noneMatch(e -> e.group() == EVEN), "not put back into the old group");
        assertEquals(restarted, again.lastView(ODD).orElseThrow().incarnations().get(2));
        Await.until("node 1 hears it join ODD", () -> one.count(MemberEventKind.JOIN, ODD, 2) == 2);
        assertEquals(restarted, one.events(MemberEventKind.JOIN, ODD, 2).get(1).incarnation());
    }

    @Test
    void shouldReconnectAndRejoinWhenAPartitionRestarts() {
        cluster.client(1, one, EVEN, ODD);
        cluster.client(2, two, EVEN);
        Await.until("views", () -> one.hasView(ODD, Set.of(1)) && two.hasView(EVEN, Set.of(1, 2)));
        long before = two.lastView(EVEN).orElseThrow().viewId();

        cluster.stop(0);
        Await.until("partition 0 down at both clients", () -> one.isDown(0) && two.isDown(0));
        cluster.client(3, three, ODD);
        Await.until("partition 1 keeps working meanwhile", () -> one.hasEvent(MemberEventKind.JOIN, ODD, 3));
        assertTrue(one.isUp(1));

        cluster.restart(0);
        // The clients kept their views while the partition was down: wait for views of the new incarnation,
        // whose ids go on growing.
        Await.until(() -> "both rejoined the restarted partition: " + one + " and " + two,
                () -> one.isUp(0) && two.isUp(0) && one.viewId(EVEN) > before && two.viewId(EVEN) > before
                        && one.members(EVEN).equals(Set.of(1, 2)) && two.members(EVEN).equals(Set.of(1, 2)));
    }

    @Test
    void shouldTurnFailureVerdictsIntoFailAndJoinEvents() {
        cluster.client(1, one, EVEN, ODD);
        cluster.client(2, two, EVEN, ODD);
        Await.until("views", () -> one.hasView(EVEN, Set.of(1)) && two.hasView(ODD, Set.of(1, 2)));
        GmsFailureReporter reporter = cluster.track(new GmsFailureReporter(cluster.replicas(), cluster.group));

        reporter.failed(2);
        Await.until(() -> "FAIL of node 2 in both groups: " + one,
                () -> one.hasEvent(MemberEventKind.FAIL, EVEN, 2) && one.hasEvent(MemberEventKind.FAIL, ODD, 2));
        assertEquals(RecordingListener.unicast(2), one.event(MemberEventKind.FAIL, ODD, 2).orElseThrow().address());
        assertTrue(two.events().stream().noneMatch(e -> e.kind() == MemberEventKind.FAIL),
                "the failed node is not told");

        int viewsBefore = two.views().size();
        reporter.recovered(2);
        Await.until("node 2 back in both groups",
                () -> one.count(MemberEventKind.JOIN, EVEN, 2) == 2 && one.count(MemberEventKind.JOIN, ODD, 2) == 2);
        assertEquals(RecordingListener.incarnation(2), one.events(MemberEventKind.JOIN, EVEN, 2).get(1).incarnation(),
                "the same process comes back");
        Await.until("node 2 gets the views again", () -> two.views().size() >= viewsBefore + 2
                && two.hasView(EVEN, Set.of(1, 2)) && two.hasView(ODD, Set.of(1, 2)));

        reporter.detectorFailed("rack-1");
        reporter.detectorRecovered("rack-1");
        Await.until("detector verdicts counted at both partitions",
                () -> cluster.server(0).counter(GmsCounter.DETECTOR_RECOVERIES) == 1
                        && cluster.server(1).counter(GmsCounter.DETECTOR_FAILURES) == 1);
    }

    @Test
    void shouldDeliverVerdictsQueuedWhileAPartitionWasDown() {
        cluster.stop(1);
        GmsFailureReporter reporter = cluster.track(new GmsFailureReporter(cluster.replicas(), cluster.group));
        reporter.detectorFailed("rack-9");
        Await.until("partition 0 got it", () -> cluster.server(0).counter(GmsCounter.DETECTOR_FAILURES) == 1);
        cluster.restart(1);
        Await.until("partition 1 got it after its restart",
                () -> cluster.server(1).counter(GmsCounter.DETECTOR_FAILURES) == 1);
        assertEquals(0, reporter.dropped());
    }

    @Test
    void shouldNotTalkToPartitionsListedOutOfOrder() {
        List<InetSocketAddress> swapped = List.of(cluster.addresses().get(1), cluster.addresses().get(0));
        cluster.client(1, RecordingListener.incarnation(1), one, swapped, EVEN);
        // The client checks each partition's SERVING greeting, and tells the partition's joins why they fail.
        String expected = "0:" + ErrorCode.WRONG_PARTITION + ":" + GmsAddresses.format(swapped.get(0))
                + " serves GMS partition 1 of 2, but is listed as a replica of partition 0 of 2";
        Await.until(() -> "the error " + expected + ": " + one.errors,
                () -> one.errors.stream().anyMatch(e -> e.startsWith(expected)));
        assertTrue(one.views().isEmpty());
        assertEquals(0, cluster.server(0).counter(GmsCounter.JOINS) + cluster.server(1).counter(GmsCounter.JOINS));
    }
}
