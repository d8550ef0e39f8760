package io.ricochet.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.NodeStats;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RicochetClientTest {
    private static final int GROUP = 5;
    private static final long WAIT_S = 30;

    private ApiFixture fixture;
    private RicochetClient client;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
        client = fixture.client();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldLearnNodeIdAndMaxPayloadFromHello() {
        assertEquals(ApiFixture.NODE_ID, client.nodeId());
        assertEquals(ApiFixture.MAX_PAYLOAD, client.maxPayload());
        assertTrue(client.isOpen());
    }

    @Test
    void shouldReceiveWhatItSendsToAGroupItJoined() throws InterruptedException {
        client.join(GROUP);

        assertEquals(0, client.send(GROUP, text("hello")));
        assertEquals(1, client.send(GROUP, text("again")));

        assertDelivery(client.poll(WAIT_S, TimeUnit.SECONDS), 0, "hello");
        assertDelivery(client.poll(WAIT_S, TimeUnit.SECONDS), 1, "again");
    }

    @Test
    void shouldDeliverToEveryClientOfTheGroup() throws InterruptedException {
        RicochetClient other = fixture.client();
        client.join(GROUP);
        other.join(GROUP);

        for (int i = 0; i < 10; i++) {
            client.send(GROUP, text("m" + i));
        }

        for (int i = 0; i < 10; i++) {
            assertDelivery(client.poll(WAIT_S, TimeUnit.SECONDS), i, "m" + i);
            assertDelivery(other.poll(WAIT_S, TimeUnit.SECONDS), i, "m" + i);
        }
    }

    @Test
    void shouldDeliverNothingOfAGroupAfterLeavingIt() throws InterruptedException {
        RicochetClient other = fixture.client();
        client.join(GROUP);
        client.join(GROUP + 1);
        other.join(GROUP);
        other.join(GROUP + 1);

        other.leave(GROUP);
        client.send(GROUP, text("after leave"));
        client.send(GROUP + 1, text("marker"));

        Delivery first = other.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(first);
        assertEquals(GROUP + 1, first.group(), "the delivery to the group left must not arrive");
    }

    @Test
    void shouldReportLostPackets() throws InterruptedException {
        client.join(GROUP);

        fixture.node().lose(3, GROUP, 42);

        Delivery lost = client.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(lost, "no loss notice");
        assertTrue(lost.isLost());
        assertEquals(3, lost.origin());
        assertEquals(GROUP, lost.group());
        assertEquals(42, lost.seqno());
        assertEquals(0, lost.payload().length);
    }

    @Test
    void shouldReturnTheNodeStatsWithTheApiCounters() {
        client.join(GROUP);

        NodeStats stats = client.stats();

        assertEquals(ApiFixture.NODE_ID, stats.node());
        assertEquals(Map.of("queued", 0L), stats.buffers());
        Map<String, Long> api = stats.api();
        assertEquals(1, api.get("CONNECTIONS_OPEN"));
        assertTrue(api.get("FRAMES_IN") >= 3, api.toString());
    }

    @Test
    void shouldCallTheSubscribedCallbackOnTheReaderThread() {
        List<String> threads = new CopyOnWriteArrayList<>();
        List<Delivery> received = new CopyOnWriteArrayList<>();
        client.subscribe(delivery -> {
            threads.add(Thread.currentThread().getName());
            received.add(delivery);
        });
        client.join(GROUP);

        client.send(GROUP, text("cb"));

        Await.until("the callback runs", () -> received.size() == 1);
        assertArrayEquals(text("cb"), received.get(0).payload());
        assertTrue(threads.get(0).startsWith("ricochet-client-"), threads.get(0));
    }

    @Test
    void shouldDropTheNewestDeliveriesWhenItsQueueIsFull() throws InterruptedException {
        RicochetClient small = RicochetClient.connect("127.0.0.1", fixture.port(),
                ClientOptions.defaults().withQueueCapacity(2));
        try (small) {
            small.join(GROUP);
            for (int i = 0; i < 5; i++) {
                small.send(GROUP, text("q" + i));
            }

            assertEquals(3, small.droppedDeliveries());
            assertDelivery(small.poll(WAIT_S, TimeUnit.SECONDS), 0, "q0");
            assertDelivery(small.poll(WAIT_S, TimeUnit.SECONDS), 1, "q1");
            assertNull(small.poll(1, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void shouldLeaveItsGroupsWhenClosed() {
        client.join(GROUP);
        assertEquals(1, fixture.node().listeners(GROUP));

        client.close();

        Await.until("the daemon leaves the group", () -> fixture.node().listeners(GROUP) == 0);
        assertFalse(client.isOpen());
    }

    @Test
    void shouldServeConcurrentSenders() throws Exception {
        client.join(GROUP);
        ExecutorService senders = Executors.newFixedThreadPool(4);
        Set<Long> seqnos = ConcurrentHashMap.newKeySet();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(senders.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        seqnos.add(client.send(GROUP, text("c")));
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get(WAIT_S, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
        assertEquals(200, seqnos.size());
        assertEquals(199L, seqnos.stream().mapToLong(Long::longValue).max().orElseThrow());
    }

    /** The example of docs/api.md, with the fixture's port, printing into a list. */
    @Test
    void shouldRunTheExampleOfTheDocs() throws InterruptedException {
        List<String> printed = new ArrayList<>();
        try (RicochetClient client = RicochetClient.connect("127.0.0.1", fixture.port())) {
            client.join(42);
            long seqno = client.send(42, "hello".getBytes(StandardCharsets.UTF_8));
            Delivery d;
            while ((d = client.poll(2, TimeUnit.SECONDS)) != null) {
                String text = d.isLost() ? "(lost)" : new String(d.payload(), StandardCharsets.UTF_8);
                printed.add(d.origin() + " " + d.group() + " " + d.seqno() + " " + text);
            }
            assertEquals(0, seqno);
        }
        assertEquals(List.of("7 42 0 hello"), printed);
    }

    private static void assertDelivery(Delivery delivery, long seqno, String text) {
        assertNotNull(delivery, "no delivery");
        assertEquals(Delivery.Kind.DELIVERED, delivery.kind());
        assertEquals(ApiFixture.NODE_ID, delivery.origin());
        assertEquals(GROUP, delivery.group());
        assertEquals(seqno, delivery.seqno());
        assertEquals(text, new String(delivery.payload(), StandardCharsets.UTF_8));
    }

    static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
