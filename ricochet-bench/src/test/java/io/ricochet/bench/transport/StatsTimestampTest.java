package io.ricochet.bench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.epoll.Epoll;
import io.ricochet.api.NodeStats;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import io.ricochet.engine.EngineCounter;
import io.ricochet.support.Platform;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A STATS reply says when the daemon read its counters, on its own clocks (issue 37): a reader takes a rate over the
 * interval between two replies' stamps, not over the time its own requests took. The daemon runs in this JVM, so
 * its monotonic clock is this test's: the stamp lies between the moments the request left and the reply came.
 */
@Timeout(60)
class StatsTimestampTest {
    private static final int GROUP = 31;

    @Test
    void shouldStampTheStatsReplyWithTheDaemonsClocksWhenItReadItsCounters() throws Exception {
        Platform.need(Epoll.isAvailable(), "the loopback daemon listens on a Unix socket, which needs epoll");
        // No bundling: each message is a datagram of its own, so DATA_SENT counts the messages sent.
        try (LoopbackDaemon loopback = LoopbackDaemon.start(5, Map.of("bundle-bytes", "0"));
             RicochetClient client = loopback.tcp().connect(ClientOptions.defaults().withClientName("stamps"))) {
            client.join(GROUP);
            NodeStats first = stampedBetweenRequestAndReply(client);
            for (int i = 0; i < 10; i++) {
                client.send(GROUP, ("message " + i).getBytes(StandardCharsets.US_ASCII));
            }
            NodeStats second = stampedBetweenRequestAndReply(client);

            assertTrue(second.takenAtNs() - first.takenAtNs() > 0, "the second reading is stamped later");
            assertEquals(10, second.counter(EngineCounter.DATA_SENT) - first.counter(EngineCounter.DATA_SENT),
                    "the counters of the second reading include the sends between the two");
        }
    }

    private static NodeStats stampedBetweenRequestAndReply(RicochetClient client) {
        long requestNs = System.nanoTime();
        long requestMs = System.currentTimeMillis();
        NodeStats stats = client.stats();
        long replyNs = System.nanoTime();
        assertTrue(stats.takenAtNs() - requestNs >= 0 && replyNs - stats.takenAtNs() >= 0, "monotonic stamp "
                + stats.takenAtNs() + " between the request at " + requestNs + " and the reply at " + replyNs);
        // The wall clock may be stepped between two readings: only that it is the daemon's, not left out.
        assertTrue(stats.takenAtEpochMs() >= requestMs - 60_000, "wall stamp " + stats.takenAtEpochMs()
                + " read by the daemon, about the request's " + requestMs);
        return stats;
    }
}
