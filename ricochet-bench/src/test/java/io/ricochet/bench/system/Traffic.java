package io.ricochet.bench.system;

import io.ricochet.api.MessageId;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import io.ricochet.engine.Counter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One application on one node: its API client, what it sent, and what it received, checked packet by packet.
 * A payload names its sender, group and index, and the rest of it is a pattern derived from those, so a wrong or
 * corrupted delivery is caught.
 */
final class Traffic implements AutoCloseable {
    /** A message id as the application sees it ({@link MessageId}: datagram seqno * 4096 + index). */
    record Id(int origin, int group, long seqno) {
        /** The datagram that carried this message. */
        long datagram() {
            return MessageId.datagram(seqno);
        }
    }

    final int node;
    final RicochetClient client;
    final Map<Id, Integer> received = new ConcurrentHashMap<>();
    final Set<Id> sent = ConcurrentHashMap.newKeySet();
    final AtomicLong corrupt = new AtomicLong();
    final AtomicLong lostNotices = new AtomicLong();
    /** Every LOST the daemon pushed to this application: the id of a datagram's first message, for all of them. */
    final Set<Id> lost = ConcurrentHashMap.newKeySet();
    /** Every DROPPED the daemon pushed because this application read too slowly: runs of message ids. */
    final List<Delivery> dropped = new CopyOnWriteArrayList<>();
    private long index;

    /** An application that does not receive what it sends itself (NO_ECHO): it expects the others' packets. */
    Traffic(int node) {
        this(node, false);
    }

    /** @param echo whether the application also receives the packets it sends (the API's default) */
    Traffic(int node, boolean echo) {
        this.node = node;
        this.client = RicochetClient.connect("127.0.0.1", ProcessCluster.apiPort(node),
                ClientOptions.defaults().withClientName("traffic-" + node).echo(echo));
        client.subscribe(this::onDelivery);
    }

    static byte[] payload(int origin, int group, long index) {
        byte[] p = new byte[256];
        byte[] head = (origin + ":" + group + ":" + index + ":").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, p, 0, head.length);
        for (int i = head.length; i < p.length; i++) {
            p[i] = (byte) (i * 31 + origin * 7 + group * 13 + index);
        }
        return p;
    }

    private void onDelivery(Delivery d) {
        if (d.kind() == Delivery.Kind.DROPPED) {
            dropped.add(d);
            return;
        }
        if (d.kind() == Delivery.Kind.LOST) {
            lostNotices.incrementAndGet();
            lost.add(new Id(d.origin(), d.group(), d.seqno()));
            return;
        }
        String text = new String(d.payload(), StandardCharsets.US_ASCII);
        String[] parts = text.split(":", 4);
        long index = Long.parseLong(parts[2]);
        if (Integer.parseInt(parts[0]) != d.origin() || Integer.parseInt(parts[1]) != d.group()
                || !java.util.Arrays.equals(d.payload(), payload(d.origin(), d.group(), index))) {
            corrupt.incrementAndGet();
        }
        received.merge(new Id(d.origin(), d.group(), d.seqno()), 1, Integer::sum);
    }

    /** Whether a notice covers message {@code id}: a LOST named its datagram, or a DROPPED run holds it. */
    boolean lostCovers(Id id) {
        return lost.contains(new Id(id.origin(), id.group(), MessageId.of(id.datagram(), 0)))
                || dropped.stream().anyMatch(r -> r.origin() == id.origin() && r.group() == id.group()
                        && r.covers(id.seqno()));
    }

    void join(int... groups) {
        for (int g : groups) {
            client.join(g);
        }
    }

    /** Sends {@code count} messages to {@code group}, pausing between them so the run spans some time. */
    List<Id> send(int group, int count) throws InterruptedException {
        List<Id> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long seqno = client.send(group, payload(node, group, index++));
            Id id = new Id(node, group, seqno);
            sent.add(id);
            ids.add(id);
            if (i % 10 == 9) {
                Thread.sleep(2);
            }
        }
        return ids;
    }

    /**
     * Sends {@code count} messages to {@code group} at about {@code perSecond} in all, from {@code threads} threads
     * each waiting for its SEND's OK (the daemon paces them if it must); returns the ids the daemon accepted.
     */
    List<Id> sendPaced(int group, int count, int perSecond, int threads) throws InterruptedException {
        List<Id> ids = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong next = new AtomicLong();
        long start = System.nanoTime();
        long gapNs = 1_000_000_000L / perSecond;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    long dueNs = start + i * gapNs;
                    long waitNs = dueNs - System.nanoTime();
                    if (waitNs > 1_000_000) {
                        java.util.concurrent.locks.LockSupport.parkNanos(waitNs);
                    }
                    long seqno = client.send(group, payload(node, group, i));
                    Id id = new Id(node, group, seqno);
                    sent.add(id);
                    ids.add(id);
                }
            }, "traffic-" + node + "-" + t);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return ids;
    }

    long counter(Counter counter) {
        return client.stats().counter(counter);
    }

    List<Integer> members(int group) {
        return client.stats().members().getOrDefault(group, List.of());
    }

    @Override
    public void close() {
        client.close();
    }
}
