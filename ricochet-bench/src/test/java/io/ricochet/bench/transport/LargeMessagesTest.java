package io.ricochet.bench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.DeliveryListener;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.daemon.Daemon;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.daemon.DaemonSettings;
import io.ricochet.gms.GmsServer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Messages of any size on real sockets (issue 34): three daemons in this process on loopback, one GMS partition, 5 %
 * loss injected at every receiver. Two senders interleave 1 MiB messages, a 16 MiB one and small ones in one group;
 * every other member gets each message exactly once and whole, none LOST; a subscriber that asked for FIFO order
 * gets each sender's messages in the order its daemon accepted them.
 */
@Timeout(180)
class LargeMessagesTest {
    private static final int GROUP = 42;
    private static final int NODES = 3;

    private GmsServer gms;
    private final List<Daemon> daemons = new ArrayList<>();

    /** What one subscriber got: message ids per origin in arrival order, their bytes' hashes, LOSTs. */
    private static final class Recorder implements DeliveryListener {
        final boolean fifo;
        final Map<Long, Integer> hashes = new ConcurrentHashMap<>();
        final Map<Integer, List<Long>> order = new ConcurrentHashMap<>();
        final AtomicInteger duplicates = new AtomicInteger();
        final List<Long> lost = new CopyOnWriteArrayList<>();

        Recorder(boolean fifo) {
            this.fifo = fifo;
        }

        @Override
        public void delivered(int origin, int group, long seqno, byte[] payload) {
            if (hashes.put(key(origin, seqno), java.util.Arrays.hashCode(payload)) != null) {
                duplicates.incrementAndGet();
            }
            order.computeIfAbsent(origin, o -> new CopyOnWriteArrayList<>()).add(seqno);
        }

        @Override
        public void lost(int origin, int group, long seqno) {
            lost.add(seqno);
        }

        @Override
        public boolean fifo(int group) {
            return fifo;
        }

        static long key(int origin, long id) {
            return (long) origin << 48 ^ id;
        }
    }

    private record Sent(int origin, long id, byte[] bytes) {
    }

    @AfterEach
    void stop() throws Exception {
        for (Daemon daemon : daemons) {
            daemon.close();
        }
        if (gms != null) {
            gms.close();
        }
    }

    private void start(long seed) throws Exception {
        gms = new GmsServer(LoopbackDaemon.gmsConfig(TlsSettings.insecure()));
        InetSocketAddress gmsAddress = gms.start();
        for (int node = 1; node <= NODES; node++) {
            Map<String, String> flags = LoopbackDaemon.daemonFlags(seed + node, gmsAddress);
            flags.put("node-id", Integer.toString(node));
            flags.put("inject-loss", "uniform:0.05");
            daemons.add(Daemon.start(DaemonSettings.resolve(null, null, flags)));
        }
    }

    @Test
    void shouldDeliverMessagesOfAnySizeWholeExactlyOnceAndInFifoOrderWhenAskedDespiteLoss() throws Exception {
        start(1);
        Recorder[] unordered = new Recorder[NODES + 1];
        Recorder[] fifo = new Recorder[NODES + 1];
        for (int node = 1; node <= NODES; node++) {
            unordered[node] = new Recorder(false);
            fifo[node] = new Recorder(true);
            daemons.get(node - 1).join(GROUP, unordered[node]).get(10, TimeUnit.SECONDS);
            daemons.get(node - 1).join(GROUP, fifo[node]).get(10, TimeUnit.SECONDS);
        }
        // Senders 1 and 2 at once, each: small messages between large ones, one of 16 MiB from node 1.
        Random random = new Random(7);
        List<Sent> sent = new CopyOnWriteArrayList<>();
        List<Thread> senders = new ArrayList<>();
        for (int node = 1; node <= 2; node++) {
            int origin = node;
            List<byte[]> messages = new ArrayList<>();
            for (int m = 0; m < 12; m++) {
                int size = m % 4 == 1 ? 1 << 20 : m == 6 && origin == 1 ? 16 << 20 : random.nextInt(3_000);
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                messages.add(bytes);
            }
            Thread sender = new Thread(() -> {
                for (byte[] bytes : messages) {
                    CompletableFuture<Long> id = daemons.get(origin - 1).send(GROUP, bytes, unordered[origin], true);
                    sent.add(new Sent(origin, id.join(), bytes));
                }
            }, "sender-" + origin);
            senders.add(sender);
            sender.start();
        }
        for (Thread sender : senders) {
            sender.join(TimeUnit.SECONDS.toMillis(120));
        }
        assertEquals(24, sent.size(), "every send accepted");

        for (int node = 1; node <= NODES; node++) {
            for (Recorder r : List.of(unordered[node], fifo[node])) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (r.hashes.size() + r.lost.size() < sent.size() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                String who = "node " + node + (r.fifo ? " FIFO" : "");
                assertEquals(List.of(), r.lost, who + ": nothing LOST at 5 %");
                assertEquals(0, r.duplicates.get(), who + ": nothing twice");
                for (Sent s : sent) {
                    Integer hash = r.hashes.get(Recorder.key(s.origin(), s.id()));
                    assertEquals(java.util.Arrays.hashCode(s.bytes()), hash == null ? 0 : hash,
                            who + ": message " + s.id() + " of node " + s.origin() + " (" + s.bytes().length
                                    + " bytes) whole");
                }
                if (r.fifo) {
                    for (int origin = 1; origin <= 2; origin++) {
                        List<Long> got = r.order.get(origin);
                        List<Long> sorted = new ArrayList<>(got);
                        sorted.sort(null);
                        assertEquals(sorted, got, who + ": node " + origin + "'s messages in its order");
                    }
                }
            }
        }
        long fragmented = 0;
        long injected = 0;
        long held = 0;
        for (Daemon daemon : daemons) {
            io.ricochet.api.NodeStats stats = daemon.stats().get(5, TimeUnit.SECONDS);
            fragmented += stats.counter(DaemonCounter.MESSAGES_REASSEMBLED);
            injected += stats.counter(DaemonCounter.INJECTED_DROPS);
            held += stats.counter(DaemonCounter.FIFO_HELD);
        }
        assertTrue(injected > 100, "loss was injected: " + injected);
        // 7 large messages (6 of 1 MiB, 1 of 16 MiB) and the small ones above 1 023 bytes, at each of 2 receivers.
        assertTrue(fragmented >= 2 * 7, "reassembled: " + fragmented);
        assertTrue(held > 0, "some deliveries came ahead of a loss and were held for FIFO: " + held);
    }
}
