package io.ricochet.bench.transport;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivery throughput over one transport: a subscriber joins the group and counts what the daemon delivers; a
 * sender, on its own connection of the same transport, sends {@code messages} packets from {@code senders} threads
 * (so up to that many SENDs are in flight on it). The time runs from the first send to the last delivery; the CPU
 * is the whole process's over that time (daemon, both clients, JVM), and the clients' threads' share of it.
 *
 * @param messages payloads sent (after {@code warmup} untimed ones)
 * @param warmup   payloads sent and delivered before the clock starts
 * @param senders  threads sending on the sender's connection
 * @param group    the group
 * @param payload  the bytes of every message
 */
record DeliveryRun(int messages, int warmup, int senders, int group, byte[] payload) {
    private static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /** What one run measured. */
    record Result(long sent, long delivered, long overflowed, double seconds, double messagesPerSecond,
            double cpuUsPerMessage, double clientCpuUsPerMessage) {
    }

    /** Runs once over {@code transport} to {@code daemon}. */
    Result run(LoopbackDaemon daemon, ApiTransport transport) throws Exception {
        // Named bench-sender-*: ThreadCpu counts them as the clients'.
        ExecutorService pool = Executors.newFixedThreadPool(senders, new DefaultThreadFactory("bench-sender", true));
        // The sender threads exist before the first CPU snapshot and after the last, so their time is counted.
        ((ThreadPoolExecutor) pool).prestartAllCoreThreads();
        AtomicLong delivered = new AtomicLong();
        AtomicLong lastDeliveryNs = new AtomicLong();
        try (RicochetClient subscriber = transport.connect(daemon, ClientOptions.defaults()
                        .withClientName("bench-subscriber"));
                RicochetClient sender = transport.connect(daemon, ClientOptions.defaults()
                        .withClientName("bench-sender").echo(false))) {
            subscriber.subscribe(d -> {
                delivered.incrementAndGet();
                lastDeliveryNs.set(System.nanoTime());
            });
            subscriber.join(group);
            sender.join(group);

            sendAll(pool, sender, warmup);
            awaitDrained(subscriber, delivered, warmup, 0);
            delivered.set(0);
            long overflowBefore = subscriber.overflowedDeliveries();

            ThreadCpu cpuStart = ThreadCpu.now();
            long start = System.nanoTime();
            sendAll(pool, sender, messages);
            awaitDrained(subscriber, delivered, messages, overflowBefore);
            ThreadCpu cpuEnd = ThreadCpu.now();

            long got = delivered.get();
            long overflowed = subscriber.overflowedDeliveries() - overflowBefore;
            double seconds = (lastDeliveryNs.get() - start) / 1e9;
            return new Result(messages, got, overflowed, seconds, got / seconds,
                    perMessageUs(cpuEnd.processSince(cpuStart), got), perMessageUs(cpuEnd.clientsSince(cpuStart),
                    got));
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static double perMessageUs(long ns, long count) {
        return count == 0 || !ThreadCpu.supported() ? Double.NaN : ns / 1e3 / count;
    }

    /** Sends {@code count} payloads from every pool thread, each its share, and waits for all of them. */
    private void sendAll(ExecutorService pool, RicochetClient sender, int count) throws Exception {
        AtomicInteger left = new AtomicInteger(count);
        List<Future<?>> running = new ArrayList<>();
        for (int t = 0; t < senders; t++) {
            running.add(pool.submit(() -> {
                while (left.getAndDecrement() > 0) {
                    sender.send(group, payload);
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
    }

    /** Waits until every one of {@code expected} is delivered or reported dropped (OVERFLOW), at most 30 s. */
    private static void awaitDrained(RicochetClient subscriber, AtomicLong delivered, long expected,
            long overflowBefore) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + DRAIN_TIMEOUT_NS;
        while (delivered.get() + subscriber.overflowedDeliveries() - overflowBefore < expected) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException(delivered.get() + " of " + expected + " messages delivered after 30 s");
            }
            Thread.sleep(1);
        }
    }
}
