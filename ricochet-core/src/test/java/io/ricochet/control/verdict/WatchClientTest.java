package io.ricochet.control.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.EventLoop;
import io.ricochet.api.Await;
import io.ricochet.control.link.FakeReplica;
import io.ricochet.control.link.LinkFixture;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link WatchClient} against fake replicas of partition 0 on 127.0.0.1: it sends WATCH first on every session with
 * a leader (again after a failover), hands every WATCH_LIST to its listener on the link's event loop, in order, and
 * tells it of an ERROR; a listener that throws does not stop it. Waits poll with a deadline.
 */
class WatchClientTest {
    @RegisterExtension
    final LinkFixture fixture = new LinkFixture("test-watch");
    private final List<WatchList> lists = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final List<Boolean> onLoop = new CopyOnWriteArrayList<>();


    @Test
    void shouldSendWatchFirstAndHandEveryListToTheListenerInOrder() {
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        WatchClient client = client("rack-1", 1, leader);

        Await.until(() -> "WATCH: " + leader.received, () -> !leader.received.isEmpty());
        assertEquals(List.of(new Watch("rack-1", 1)), leader.received);

        WatchList first = list(target(1, 1, 7501), target(2, 1, 7502));
        WatchList second = list(target(1, 1, 7501), target(3, 2, 7503));
        leader.sendToAll(first);
        leader.sendToAll(second);
        Await.until(() -> "both lists: " + lists, () -> lists.size() == 2);

        assertEquals(List.of(first, second), lists);
        assertEquals(List.of(true, true), onLoop, "the listener runs on the group's event loop");
        assertEquals(2, client.listsReceived());
        assertEquals(List.of(new Watch("rack-1", 1)), leader.received, "nothing else sent on the session");
    }

    @Test
    void shouldSendWatchAgainToTheNextLeaderAfterAFailover() {
        FakeReplica first = fixture.replica(FakeReplica.leader());
        FakeReplica next = fixture.replica(FakeReplica.leader());
        FakeReplica follower = fixture.replica(FakeReplica.follower(next));
        client("standby-1", Watch.STANDBY, first, follower);
        Await.until(() -> "WATCH at the first leader: " + first.received, () -> !first.received.isEmpty());
        first.sendToAll(list(target(4, 2, 7504)));
        Await.until(() -> "the first list: " + lists, () -> lists.size() == 1);

        first.close();

        Await.until(() -> "WATCH at the next leader: " + next.received, () -> !next.received.isEmpty());
        assertEquals(List.of(new Watch("standby-1", Watch.STANDBY)), next.received);
        assertEquals(List.of(), follower.received, "a follower only redirects");
        WatchList moved = list(target(4, 2, 7504), target(5, 2, 7505));
        next.sendToAll(moved);
        Await.until(() -> "the next leader's list: " + lists, () -> lists.size() == 2);
        assertEquals(moved, lists.get(1));
    }

    @Test
    void shouldTellTheListenerOfAnErrorAndKeepGoingWhenItThrows() {
        FakeReplica leader = fixture.replica(FakeReplica.leader());
        WatchClient.Listener throwing = new WatchClient.Listener() {
            @Override
            public void onWatchList(WatchList list) {
                lists.add(list);
                if (lists.size() == 1) {
                    throw new IllegalStateException("a listener bug");
                }
            }

            @Override
            public void onError(int code, String message) {
                errors.add(ErrorCode.name(code) + " " + message);
            }
        };
        fixture.client(new WatchClient("rack-2", 2, List.of(List.of(leader.address())), fixture.group,
                TlsSettings.insecure(), throwing));
        Await.until(() -> "WATCH: " + leader.received, () -> !leader.received.isEmpty());

        leader.sendToAll(list(target(1, 2, 7501)));
        leader.sendToAll(new ErrorReply(ErrorCode.NOT_AUTHORIZED, "not a detector"));
        leader.sendToAll(list());
        Await.until(() -> "two lists: " + lists, () -> lists.size() == 2);

        assertEquals(List.of("NOT_AUTHORIZED not a detector"), errors);
        assertEquals(list(), lists.get(1));
        assertEquals(1, leader.accepted(), "an ERROR does not end the session");
    }

    @Test
    void shouldRefuseABadRackOrNoPartition() {
        List<List<InetSocketAddress>> one = List.of(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                7100)));
        WatchClient.Listener ignore = list -> { };
        assertThrows(IllegalArgumentException.class,
                () -> new WatchClient("rack-1", 65_536, one, fixture.group, TlsSettings.insecure(), ignore));
        assertThrows(IllegalArgumentException.class,
                () -> new WatchClient("rack-1", -1, one, fixture.group, TlsSettings.insecure(), ignore));
        assertThrows(IllegalArgumentException.class,
                () -> new WatchClient("rack-1", 1, List.of(), fixture.group, TlsSettings.insecure(), ignore));
        assertThrows(NullPointerException.class,
                () -> new WatchClient("rack-1", 1, one, fixture.group, TlsSettings.insecure(), null));
    }

    private WatchClient client(String id, int rack, FakeReplica... replicas) {
        EventLoop loop = fixture.group.next();
        WatchClient client = new WatchClient(id, rack, List.of(List.of(replicas).stream()
                .map(FakeReplica::address).toList()), fixture.group, TlsSettings.insecure(), list -> {
                    onLoop.add(loop.inEventLoop());
                    lists.add(list);
                });
        assertEquals(new Watch(id, rack), client.watch());
        return fixture.client(client);
    }

    private static WatchList.Target target(int node, int rack, int port) {
        return new WatchList.Target(node, rack, new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    private static WatchList list(WatchList.Target... targets) {
        return new WatchList(List.of(targets));
    }

}
