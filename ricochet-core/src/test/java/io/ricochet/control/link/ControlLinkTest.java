package io.ricochet.control.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.Await;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.MessageType;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Serving;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ControlLink} against fake replicas on 127.0.0.1 that greet with SERVING or REDIRECT: it finds the leader,
 * goes up once there, moves on when the leader goes, and does not spin between replicas that redirect to each
 * other. Waits poll with a deadline; the one time check is a lower bound (the backoff cannot fire early).
 */
class ControlLinkTest {
    @RegisterExtension
    final LinkFixture fixture = new LinkFixture("test-link");
    private final Recorder recorder = new Recorder();


    @Test
    void shouldFollowARedirectToTheLeaderAndGoUpOnceThere() {
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        FakeReplica follower = fixture.replica(FakeReplica.follower(leader));
        startLink(0, 1, follower.address(), leader.address());

        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));
        leader.sendToAll(new ErrorReply(ErrorCode.NOT_AUTHORIZED, "just a message"));
        Await.until(() -> "the leader's message: " + recorder.events, () -> recorder.events.size() == 2);

        assertEquals(List.of("up", "message ERROR"), recorder.events);
        assertEquals(1, follower.accepted());
        assertEquals(1, leader.accepted());
    }

    @Test
    void shouldFollowARedirectToALeaderThatIsNotListed() {
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        FakeReplica follower = fixture.replica(FakeReplica.follower(leader));
        startLink(0, 1, follower.address());

        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));
        assertEquals(List.of("up"), recorder.events);
        assertEquals(1, leader.accepted());
    }

    @Test
    void shouldTryTheNextReplicaWhenNoLeaderIsKnown() {
        FakeReplica electing = fixture.replica(new FakeReplica(Redirect::unknown));
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        startLink(0, 1, electing.address(), leader.address());

        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));
        assertEquals(List.of("up"), recorder.events, "a replica without a leader is no down of a link never up");
        assertEquals(1, electing.accepted());
        assertEquals(1, leader.accepted());
    }

    @Test
    void shouldMoveToAnotherReplicaWhenTheLeaderGoesAway() {
        FakeReplica first = fixture.replica(FakeReplica.leader());
        FakeReplica second = fixture.replica(new FakeReplica(() -> Redirect.to(first.address())));
        FakeReplica third = fixture.replica(FakeReplica.leader());
        startLink(0, 1, first.address(), second.address(), third.address());
        Await.until(() -> "up at the first: " + recorder.events, () -> recorder.events.equals(List.of("up")));

        // The first leader crashes; the second replica still points at it (stale), the third leads now.
        first.close();

        Await.until(() -> "down, then up again: " + recorder.events,
                () -> recorder.events.equals(List.of("up", "down", "up")));
        assertEquals(1, third.accepted());
        assertTrue(second.accepted() <= 1, "the stale replica is asked at most once: " + second.accepted());
    }

    @Test
    void shouldGoDownWhenTheLeaderSaysItLostTheLeadAndFindTheNewOne() {
        FakeReplica first = fixture.replica(FakeReplica.leader());
        FakeReplica second = fixture.replica(FakeReplica.leader());
        startLink(0, 1, first.address(), second.address());
        Await.until(() -> "up: " + recorder.events, () -> recorder.events.equals(List.of("up")));

        first.greetWith(() -> Redirect.to(second.address()));
        first.sendToAll(new ErrorReply(ErrorCode.NOT_LEADER, "stepped down"));

        Await.until(() -> "down, then up at the second: " + recorder.events,
                () -> recorder.events.equals(List.of("up", "down", "up")) && second.accepted() == 1);
    }

    @Test
    void shouldNotSpinBetweenReplicasThatRedirectToEachOther() {
        FakeReplica a = fixture.replica(new FakeReplica(() -> Redirect.unknown()));
        FakeReplica b = fixture.replica(new FakeReplica(() -> Redirect.to(a.address())));
        a.greetWith(() -> Redirect.to(b.address()));
        long startNs = System.nanoTime();
        startLink(0, 1, a.address(), b.address());

        // Two hops at once (as many as there are replicas), then the backoff: 100 ms before the 4th session,
        // 200 ms more before the 5th. A link that spun would get there in a few milliseconds.
        Await.until(() -> "5 sessions: " + a.accepted() + " + " + b.accepted(),
                () -> a.accepted() + b.accepted() >= 5);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

        assertTrue(elapsedMs >= 300, "5 sessions after " + elapsedMs + " ms: the redirect loop was not slowed");
        assertEquals(List.of(), recorder.events);
    }

    @Test
    void shouldNotGoUpAtAReplicaOfAnotherPartition() {
        FakeReplica wrong = fixture.replica(new FakeReplica(() -> new Serving(1, 2, 4)));
        FakeReplica right = fixture.replica(new FakeReplica(() -> new Serving(0, 2, 4)));
        startLink(0, 2, wrong.address(), right.address());

        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));
        String problem = GmsAddresses.format(wrong.address()) + " serves GMS partition 1 of 2, but is listed as a "
                + "replica of partition 0 of 2: list the partitions in partition order, each with its own replicas";
        assertEquals(List.of("misconfigured " + problem, "up"), recorder.events);
        assertEquals(List.of(), wrong.received, "nothing was sent to the wrong partition");
    }

    @Test
    void shouldLeaveAReplicaThatGreetsWithAnythingElse() {
        FakeReplica odd = fixture.replica(new FakeReplica(() -> new ErrorReply(ErrorCode.MALFORMED_FRAME, "hello?")));
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        startLink(0, 1, odd.address(), leader.address());

        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));
        assertEquals(List.of("up"), recorder.events, "the odd greeting never reached the handler");
    }

    @Test
    void shouldLeaveAReplicaThatNeverGreets() {
        FakeReplica hung = fixture.replica(new FakeReplica(() -> null));
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        startLink(0, 1, hung.address(), leader.address());

        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));
        assertEquals(List.of("up"), recorder.events);
        assertEquals(1, hung.accepted());
    }

    @Test
    void shouldSendToTheLeaderOnceUp() {
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        ControlLink link = startLink(0, 1, leader.address());
        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));

        link.execute(() -> link.send(new NodeFailed(3)));

        Await.until(() -> "NODE_FAILED at the leader: " + leader.received, () -> !leader.received.isEmpty());
        assertEquals(List.of(new NodeFailed(3)), leader.received);
    }

    @Test
    void shouldHandTheLeadersStatusToItsOwnHookAndTheRestToOnMessage() {
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        startLink(0, 1, leader.address());
        Await.until(() -> "up: " + recorder.events, () -> recorder.events.contains("up"));

        leader.sendToAll(new GmsStatus(4, 99));
        leader.sendToAll(new NodeFailed(3));

        Await.until(() -> "both heard: " + recorder.events, () -> recorder.events.size() == 3);
        assertEquals(List.of("up", "status 4/99", "message NODE_FAILED"), recorder.events);
    }

    private ControlLink startLink(int partition, int partitions, InetSocketAddress... replicas) {
        ControlLink link = new ControlLink("partition " + partition, partition, partitions, List.of(replicas),
                fixture.group, TlsSettings.insecure());
        fixture.client(link::close);
        link.start(recorder);
        return link;
    }


    /** Everything the link tells its handler, in order. */
    private static final class Recorder implements ControlLink.Handler {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onUp() {
            events.add("up");
        }

        @Override
        public void onMessage(ControlMessage message) {
            events.add("message " + MessageType.name(message.type()));
        }

        @Override
        public void onDown() {
            events.add("down");
        }

        @Override
        public void onMisconfigured(String problem) {
            events.add("misconfigured " + problem);
        }

        @Override
        public void onStatus(GmsStatus status) {
            events.add("status " + status.term() + "/" + status.commitIndex());
        }
    }
}
