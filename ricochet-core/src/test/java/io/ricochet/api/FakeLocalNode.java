package io.ricochet.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * A {@link LocalNode} without a network: a send is delivered straight back to every listener of the group, on one
 * "engine" thread as in the daemon. Tests can also push deliveries and loss notices of other origins.
 */
public final class FakeLocalNode implements LocalNode, AutoCloseable {
    /** Deliveries in one batch of the fake engine at most, as the daemon's engine ends a batch per wake-up. */
    private static final int ENGINE_BATCH = 64;

    private final int nodeId;
    private final int maxPayload;
    private final int maxMessage;
    /** The payload of the last send the node took. */
    private volatile byte[] lastSent;
    private final ExecutorService engine = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "fake-engine");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<Integer, List<DeliveryListener>> listeners = new HashMap<>();
    private final Map<Integer, Long> nextSeqno = new HashMap<>();
    /** Sends that wait for the node to have room again, in order. */
    private final List<Runnable> waitingSends = new ArrayList<>();
    private boolean full;
    private long sent;

    public FakeLocalNode(int nodeId, int maxPayload) {
        this(nodeId, maxPayload, maxPayload);
    }

    /** A node that takes messages of up to {@code maxMessage} bytes, as one with fragmentation does. */
    public FakeLocalNode(int nodeId, int maxPayload, int maxMessage) {
        this.nodeId = nodeId;
        this.maxPayload = maxPayload;
        this.maxMessage = maxMessage;
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    @Override
    public int maxPayload() {
        return maxPayload;
    }

    @Override
    public int maxMessage() {
        return maxMessage;
    }

    /** The payload of the last send the node took, as it was handed over; null before the first. */
    public byte[] lastSent() {
        return lastSent;
    }

    /** What each listener of {@code group} answers to {@link DeliveryListener#fifo}, asked on the engine thread. */
    public List<Boolean> fifo(int group) {
        return await(CompletableFuture.supplyAsync(() -> listeners.getOrDefault(group, List.of()).stream()
                .map(listener -> listener.fifo(group)).toList(), engine));
    }

    @Override
    public CompletableFuture<Void> join(int group, DeliveryListener listener) {
        return CompletableFuture.runAsync(() -> {
            List<DeliveryListener> members = listeners.computeIfAbsent(group, g -> new ArrayList<>());
            if (!members.contains(listener)) {
                members.add(listener);
            }
        }, engine);
    }

    @Override
    public CompletableFuture<Void> leave(int group, DeliveryListener listener) {
        return CompletableFuture.runAsync(() -> {
            List<DeliveryListener> members = listeners.getOrDefault(group, new ArrayList<>());
            members.remove(listener);
            if (members.isEmpty()) {
                listeners.remove(group);
            }
        }, engine);
    }

    /**
     * While full, a send with {@code wait} waits until {@link #full(boolean) full(false)}, and one without fails
     * with BUSY, as in the daemon when its send queue is full.
     */
    @Override
    public CompletableFuture<Long> send(int group, byte[] payload, DeliveryListener from, boolean wait) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        engine.execute(() -> {
            if (!full) {
                complete(result, () -> multicast(group, payload, from));
            } else if (wait) {
                waitingSends.add(() -> complete(result, () -> multicast(group, payload, from)));
            } else {
                result.completeExceptionally(new ApiException(ApiException.Code.BUSY, "send queue full"));
            }
        });
        return result;
    }

    private long multicast(int group, byte[] payload, DeliveryListener from) {
        if (payload.length > maxMessage) {
            throw new ApiException(ApiException.Code.PAYLOAD_TOO_LARGE, "payload too large");
        }
        if (!listeners.containsKey(group)) {
            throw new ApiException(ApiException.Code.NOT_A_MEMBER, "not in group " + group);
        }
        long seqno = nextSeqno.merge(group, 1L, Long::sum) - 1;
        sent++;
        lastSent = payload;
        for (DeliveryListener listener : List.copyOf(listeners.get(group))) {
            if (listener.acceptsLocal(listener == from)) {
                listener.delivered(nodeId, group, seqno, payload.clone());
                listener.endOfBatch();
            }
        }
        return seqno;
    }

    private static void complete(CompletableFuture<Long> result, LongSupplier send) {
        try {
            result.complete(send.getAsLong());
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    /** Makes the node full (sends wait or are BUSY) or not (waiting sends go out, in order); waits until done. */
    public void full(boolean isFull) {
        await(CompletableFuture.runAsync(() -> {
            full = isFull;
            if (!isFull) {
                List<Runnable> ready = List.copyOf(waitingSends);
                waitingSends.clear();
                ready.forEach(Runnable::run);
            }
        }, engine));
    }

    /** How many sends wait for room. */
    public int waitingSends() {
        return await(CompletableFuture.supplyAsync(waitingSends::size, engine));
    }

    @Override
    public CompletableFuture<NodeStats> stats() {
        return CompletableFuture.supplyAsync(() -> new NodeStats(nodeId, 1, "fake", "none", "fake", 0,
                Map.of("DATA_SENT", sent), 0, null, Map.of("queued", 0L), List.copyOf(listeners.keySet()), Map.of(),
                null, null), engine);
    }

    /** Delivers a packet of {@code origin} to the group's listeners, on the engine thread; waits until done. */
    public void deliver(int origin, int group, long seqno, byte[] payload) {
        deliverMany(origin, group, seqno, 1, payload);
    }

    /** Delivers packets {@code firstSeqno ..} {@code + count - 1} with the same payload; waits until done. */
    public void deliverMany(int origin, int group, long firstSeqno, int count, byte[] payload) {
        await(CompletableFuture.runAsync(() -> {
            for (DeliveryListener listener : List.copyOf(listeners.getOrDefault(group, List.of()))) {
                for (int i = 0; i < count; i++) {
                    listener.delivered(origin, group, firstSeqno + i, payload.clone());
                    if (i % ENGINE_BATCH == ENGINE_BATCH - 1) {
                        listener.endOfBatch();
                    }
                }
                listener.endOfBatch();
            }
        }, engine));
    }

    /** Reports (origin, group, seqno) lost to the group's listeners; waits until done. */
    public void lose(int origin, int group, long seqno) {
        await(CompletableFuture.runAsync(() -> {
            for (DeliveryListener listener : List.copyOf(listeners.getOrDefault(group, List.of()))) {
                listener.lost(origin, group, seqno);
                listener.endOfBatch();
            }
        }, engine));
    }

    /** How many listeners {@code group} has now. */
    public int listeners(int group) {
        return await(CompletableFuture.supplyAsync(() -> listeners.getOrDefault(group, List.of()).size(), engine));
    }

    @Override
    public void close() {
        engine.shutdownNow();
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("fake engine did not finish", e);
        }
    }
}
