package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A client that pipelines requests without reading replies holds at most {@code maxRequestsInFlight} of them in
 * flight in the daemon: the daemon stops reading it at the limit, answers every request in order once it reads
 * again, and serves other clients meanwhile.
 */
class ApiInFlightLimitTest {
    private static final int LIMIT = 64;
    private static final int REQUESTS = 400_000;
    private static final int FRAMES_PER_WRITE = 1_000;
    private static final int GROUP = 3;
    /** Replies to read back: far more than loopback socket buffers hold, so the daemon must have read again. */
    private static final int REPLIES_TO_READ = 20_000;

    @Test
    void shouldBoundRequestsInFlightOfAClientThatReadsNoReplies() throws Exception {
        try (ApiFixture fixture = new ApiFixture(ApiConfig.defaults().withMaxRequestsInFlight(LIMIT));
                RawConnection greedy = new RawConnection(fixture.port(), 4096).hello()) {
            ApiServer server = fixture.server();
            AtomicLong written = new AtomicLong();
            Thread writer = new Thread(() -> pipelineStats(greedy, written), "pipelining-client");
            writer.setDaemon(true);
            writer.start();

            Await.until(() -> "the daemon stops reading the greedy client (peak "
                    + server.counter(ApiCounter.PEAK_REQUESTS_IN_FLIGHT) + ", " + written.get() + " requests written)",
                    () -> server.counter(ApiCounter.READS_PAUSED) > 0);

            RicochetClient good = fixture.client();
            for (int i = 0; i < 20; i++) {
                good.join(GROUP + i);
                long seqno = good.send(GROUP + i, ("m" + i).getBytes(StandardCharsets.UTF_8));
                Delivery delivery = good.poll(30, TimeUnit.SECONDS);
                assertNotNull(delivery, "the other client must be served");
                assertEquals(seqno, delivery.seqno());
                assertEquals(GROUP + i, delivery.group());
            }

            long pausesBefore = server.counter(ApiCounter.READS_PAUSED);
            readReplies(greedy, server);

            assertEquals(LIMIT, server.counter(ApiCounter.PEAK_REQUESTS_IN_FLIGHT),
                    "in flight on one connection must reach the limit and never pass it");
            assertTrue(server.counter(ApiCounter.READS_PAUSED) > pausesBefore, "reading resumed and paused again");
            greedy.close();
            writer.join(30_000);
        }
    }

    /** Writes STATS requests 2, 3, ... in batches; stops when the socket is closed. */
    private static void pipelineStats(RawConnection connection, AtomicLong written) {
        ByteBuf batch = Unpooled.buffer();
        try {
            for (int id = 2; id < REQUESTS + 2; id += FRAMES_PER_WRITE) {
                batch.clear();
                for (int i = id; i < id + FRAMES_PER_WRITE; i++) {
                    ApiFrameCodec.encode(new ApiRequest.Stats(i), batch);
                }
                byte[] bytes = new byte[batch.readableBytes()];
                batch.readBytes(bytes);
                connection.write(bytes);
                written.addAndGet(FRAMES_PER_WRITE);
            }
        } catch (IOException closed) {
            // the test closed the connection
        }
    }

    /** Reads replies, checking they answer requests 2, 3, ... in order, none lost or doubled. */
    private static void readReplies(RawConnection greedy, ApiServer server) throws Exception {
        for (int expectedId = 2; expectedId < REPLIES_TO_READ + 2; expectedId++) {
            ApiReply.StatsReply reply = assertInstanceOf(ApiReply.StatsReply.class, greedy.read());
            assertEquals(expectedId, reply.requestId(), "replies come in request order");
            assertTrue(server.counter(ApiCounter.PEAK_REQUESTS_IN_FLIGHT) <= LIMIT);
        }
    }
}
