package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import io.ricochet.control.tls.TlsSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A rack detector whose daemons come from the GMS, wired as {@code ricochet-fd --rack R} wires it
 * ({@link FdRunner.Detector}), against a {@link FakeGms} and {@link FakeDaemon}s on loopback: it asks with WATCH,
 * pings the daemons of each list the GMS sends, stops pinging those a new list drops, reports a listed daemon that
 * never answers to the verdict session, keeps its {@code --members} throughout, and keeps its last list while the GMS
 * is away. Conditions are awaited by polling, with the short interval and high miss count of {@link FdServerTest}.
 */
class FdWatchListTest {
    private final FakeGms gms = new FakeGms();
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
        gms.close();
    }

    private FakeDaemon daemon(int nodeId) throws Exception {
        return keep(new FakeDaemon(nodeId));
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(0, resource);
        return resource;
    }

    /** A detector with {@code members} as --members, watching {@code rack} (0: standby) with the fake GMS. */
    private FdRunner.Detector detector(String id, int rack, List<Target> members) throws Exception {
        FdConfig config = new FdConfig(id, FdServerTest.ANY_LOOPBACK_PORT, members, FdServerTest.INTERVAL_NS,
                FdServerTest.MISS);
        FdRunner.Detector detector = keep(new FdRunner.Detector(config, List.of(List.of(gms.address())),
                TlsSettings.insecure()));
        detector.start(OptionalInt.of(rack));
        return detector;
    }

    private static WatchList list(int rack, FakeDaemon... daemons) {
        List<WatchList.Target> targets = new ArrayList<>();
        for (FakeDaemon d : daemons) {
            targets.add(new WatchList.Target(d.target().wireId(), rack, d.target().address()));
        }
        return new WatchList(targets);
    }

    private FakeGms.Session watchSession(int number, FdCounters counters) {
        Await.until("watch session " + number, () -> gms.watchSessions().size() >= number, counters::toString);
        return gms.watchSessions().get(number - 1);
    }

    @Test
    void shouldFollowTheListsOfTheGmsAndReportAListedDaemonThatNeverAnswers() throws Exception {
        FakeDaemon one = daemon(1);
        FakeDaemon two = daemon(2);
        FakeDaemon three = daemon(3);
        three.answer(false);
        FakeDaemon fixed = daemon(40);
        FdRunner.Detector fd = detector("rack-1", 1, List.of(fixed.target()));
        FdCounters counters = fd.server.counters();

        FakeGms.Session watch = watchSession(1, counters);
        assertEquals(List.of(new Watch("rack-1", 1)), watch.received);
        watch.send(list(1, one, two));
        Await.until("daemons 1 and 2 answered a few rounds", () -> one.heartbeats() >= 5 && two.heartbeats() >= 5,
                counters::toString);
        assertEquals(1, counters.get(FdCounter.WATCH_LISTS));

        // The GMS swaps daemon 2 for daemon 3, which never answers.
        watch.send(list(1, one, three));
        Await.until("the second list applied", () -> counters.get(FdCounter.WATCH_LISTS) == 2, counters::toString);
        Await.until("daemon 3 pinged", () -> three.heartbeats() > 0, counters::toString);
        Await.until("NODE_FAILED 3 on the verdict session", () -> gms.verdicts().contains(new NodeFailed(3)),
                counters::toString);
        // Nothing is pinged at daemon 2 any more: its count stays put while daemon 1 gets 2 * miss more rounds.
        long oneBefore = one.heartbeats();
        long fixedBefore = fixed.heartbeats();
        Await.until("daemon 1 pinged 2 * miss more rounds", () -> one.heartbeats() >= oneBefore + 2 * FdServerTest.MISS,
                counters::toString);
        long twoPinged = two.heartbeats();
        long oneNow = one.heartbeats();
        Await.until("daemon 1 pinged 2 * miss more rounds again",
                () -> one.heartbeats() >= oneNow + 2 * FdServerTest.MISS, counters::toString);

        assertEquals(twoPinged, two.heartbeats(), "daemon 2 is no longer pinged");
        assertEquals(Set.of(new NodeRecovered(1), new NodeRecovered(2), new NodeFailed(3)),
                new HashSet<>(gms.verdicts()), "listed daemons 1 and 2 alive on their first answer; nothing of 40");
        assertEquals(3, gms.verdicts().size(), "once each: " + gms.verdicts());
        assertEquals(2, counters.get(FdCounter.FIRST_ANSWERS_REPORTED));
        Await.until("--members daemon 40 still pinged", () -> fixed.heartbeats() >= fixedBefore + 2 * FdServerTest.MISS,
                counters::toString);
        assertEquals(3, counters.get(FdCounter.TARGETS_ADDED));
        assertEquals(1, counters.get(FdCounter.TARGETS_REMOVED));
        assertEquals(List.of(new Watch("rack-1", 1)), watch.received, "only WATCH on the watch session");
    }

    @Test
    void shouldNotReportADaemonTakenOffItsListAgainToTheNextLeader() throws Exception {
        FakeDaemon one = daemon(1);
        FakeDaemon three = daemon(3);
        three.answer(false);
        FdRunner.Detector fd = detector("rack-1", 1, List.of());
        FdCounters counters = fd.server.counters();
        FakeGms.Session watch = watchSession(1, counters);
        watch.send(list(1, one, three));
        Await.until("NODE_FAILED 3 on the verdict session", () -> gms.verdicts().contains(new NodeFailed(3)),
                counters::toString);

        // Rack 1's daemon 3 goes to another detector, which may find it alive: NODE_FAILED 3 is this one's no more.
        watch.send(list(1, one));
        Await.until("daemon 3 taken off", () -> counters.get(FdCounter.TARGETS_REMOVED) == 1, counters::toString);
        one.answer(false);
        Await.until("NODE_FAILED 1 on the verdict session", () -> gms.verdicts().contains(new NodeFailed(1)),
                counters::toString);
        FakeGms.Session first = gms.verdictSessions().get(0);
        first.close();

        Await.until("a second verdict session, with NODE_FAILED 1 again", () -> gms.verdictSessions().size() >= 2
                && gms.verdictSessions().get(1).received.contains(new NodeFailed(1)), counters::toString);
        assertEquals(List.of(new NodeFailed(1)), gms.verdictSessions().get(1).received,
                "the latest verdicts are written again in one go, without NODE_FAILED 3");
    }

    @Test
    void shouldKeepItsLastListWhileTheGmsIsAwayAndAskAgainOnTheNextSession() throws Exception {
        FakeDaemon one = daemon(1);
        FakeDaemon two = daemon(2);
        FdRunner.Detector fd = detector("standby-1", Watch.STANDBY, List.of());
        FdCounters counters = fd.server.counters();
        FakeGms.Session first = watchSession(1, counters);
        assertEquals(List.of(new Watch("standby-1", Watch.STANDBY)), first.received);
        first.send(list(2, one));
        Await.until("daemon 1 answered a few rounds", () -> one.heartbeats() >= 5, counters::toString);

        first.close();
        FakeGms.Session second = watchSession(2, counters);
        assertEquals(List.of(new Watch("standby-1", Watch.STANDBY)), second.received);
        long onePinged = one.heartbeats();
        Await.until("daemon 1 still pinged after the session ended", () -> one.heartbeats() > onePinged + 5,
                counters::toString);

        second.send(list(2, one, two));
        Await.until("daemon 2 pinged", () -> two.heartbeats() >= 5, counters::toString);
        Await.until("daemon 2's first answer reported", () -> gms.verdicts().contains(new NodeRecovered(2)),
                counters::toString);
        assertEquals(List.of(new NodeRecovered(1), new NodeRecovered(2)), gms.verdicts(),
                "each listed daemon alive on its first answer, once; daemon 1 not again after the session ended");
        assertEquals(2, counters.get(FdCounter.WATCH_LISTS));
        assertEquals(0, counters.get(FdCounter.TARGETS_REMOVED));
    }

    @Test
    void shouldTakeAListGivenBeforeTheServerStarts() throws Exception {
        FakeDaemon one = daemon(1);
        FdConfig config = new FdConfig("rack-3", FdServerTest.ANY_LOOPBACK_PORT, List.of(), FdServerTest.INTERVAL_NS,
                FdServerTest.MISS);
        FdRunner.Detector fd = keep(new FdRunner.Detector(config, List.of(List.of(gms.address())),
                TlsSettings.insecure()));
        fd.server.watch(list(3, one));
        fd.start(OptionalInt.empty());

        Await.until("daemon 1 pinged", () -> one.heartbeats() >= 5, () -> fd.server.counters().toString());
        assertEquals(1, fd.server.counters().get(FdCounter.WATCH_LISTS));
        assertEquals(List.of(), gms.watchSessions(), "no --rack: no watch session");
    }
}
