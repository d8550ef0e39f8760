package io.ricochet.bench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.ricochet.api.ApiException;
import io.ricochet.api.NodeStats;
import io.ricochet.daemon.Daemon;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.support.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * max-groups: a node in that many groups (joins in flight included) refuses one more with LIMIT_EXCEEDED naming the
 * setting, counts it and keeps nothing for it, however many come; a group left makes room again.
 */
@Timeout(60)
class DaemonGroupLimitTest {
    private static final int LIMIT = 3;
    private static final int FIRST = 100;

    @Test
    void shouldRefuseJoinsPastMaxGroupsCheaplyAndTakeOneAgainAfterALeave() throws Exception {
        Platform.need(Epoll.isAvailable(), "the loopback daemon listens on a Unix socket, which needs epoll");
        try (LoopbackDaemon loopback = LoopbackDaemon.start(3, Map.of("max-groups", Integer.toString(LIMIT)))) {
            Daemon daemon = loopback.daemon();
            QuietListener app = new QuietListener();
            for (int group = FIRST; group < FIRST + LIMIT; group++) {
                daemon.join(group, app).get(10, TimeUnit.SECONDS);
            }
            daemon.join(FIRST, new QuietListener()).get(10, TimeUnit.SECONDS);   // another subscriber of a joined group

            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> daemon.join(FIRST + LIMIT, app).get(10, TimeUnit.SECONDS));
            ApiException error = assertInstanceOf(ApiException.class, refused.getCause());
            assertEquals(ApiException.Code.LIMIT_EXCEEDED, error.code());
            assertTrue(error.getMessage().contains("is in 3 groups") && error.getMessage().contains("max-groups = 3"),
                    error.getMessage());

            // 100 000 more, all in flight at once: each is refused on the engine's thread, nothing is kept.
            int extra = 100_000;
            List<CompletableFuture<Void>> joins = new ArrayList<>(extra);
            for (int i = 0; i < extra; i++) {
                joins.add(daemon.join(FIRST + LIMIT + i, app));
            }
            for (CompletableFuture<Void> join : joins) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> join.get(10, TimeUnit.SECONDS));
                assertEquals(ApiException.Code.LIMIT_EXCEEDED, ((ApiException) e.getCause()).code());
            }
            NodeStats stats = daemon.stats().get(10, TimeUnit.SECONDS);
            assertEquals(1 + extra, stats.counter(DaemonCounter.GROUP_LIMIT_REFUSALS));
            assertEquals(List.of(FIRST, FIRST + 1, FIRST + 2), stats.groups());

            daemon.leave(FIRST + 1, app).get(10, TimeUnit.SECONDS);
            daemon.join(FIRST + LIMIT, app).get(10, TimeUnit.SECONDS);
            assertTrue(daemon.stats().get(10, TimeUnit.SECONDS).groups().contains(FIRST + LIMIT));
        }
    }
}
