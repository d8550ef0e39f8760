package io.ricochet.bench.transport;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.ricochet.daemon.Daemon;
import io.ricochet.gms.GmsCounter;
import io.ricochet.support.Platform;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An application that joins a group right after the node's last subscriber left it: the daemon is still a member
 * until the GMS takes the leave, so it must ask the GMS to take it back in rather than trust a membership that is
 * about to end (the node would be left out of the group with a subscriber on it).
 */
@Timeout(30)
class RejoinAfterLeaveTest {
    private static final int GROUP = 42;

    @Test
    void shouldRejoinTheGmsWhenAJoinFollowsTheLastLeave() throws Exception {
        Platform.need(Epoll.isAvailable(), "the loopback daemon listens on a Unix socket, which needs epoll");
        try (LoopbackDaemon loopback = LoopbackDaemon.start(7)) {
            Daemon daemon = loopback.daemon();
            QuietListener first = new QuietListener();
            QuietListener second = new QuietListener();
            daemon.join(GROUP, first).get(10, TimeUnit.SECONDS);
            daemon.leave(GROUP, first).get(10, TimeUnit.SECONDS);
            daemon.join(GROUP, second).get(10, TimeUnit.SECONDS);

            // The GMS must see the node join again after its leave; until then the test waits (the timeout fails it).
            while (loopback.gms().counter(GmsCounter.JOINS) < 2) {
                Thread.sleep(10);
            }
            assertTrue(loopback.gms().counter(GmsCounter.LEAVES) >= 1);
            // And the daemon, having seen the leave and the join, still takes sends for the group.
            long seqno = daemon.send(GROUP, new byte[] {1}, second, true).get(10, TimeUnit.SECONDS);
            assertTrue(seqno >= 0);
        }
    }
}
