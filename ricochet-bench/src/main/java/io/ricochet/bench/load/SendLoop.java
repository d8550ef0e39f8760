package io.ricochet.bench.load;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The paced send loop of a load generator, on its socket's event loop: every tick it asks the {@link Pacer} how
 * many packets are due, has the {@link FrameSource} write them, queues them on the {@link LoadSocket} and flushes
 * once. It stops at the end of the pacer's schedule, counted from the first tick, or at the first tick after
 * {@link #stop()}; nothing is sent for time after the end, so a late last tick does not inflate the count. Every
 * {@link #PROGRESS_INTERVAL_NS} it notes how many packets it has sent ({@link SendProgress}).
 */
final class SendLoop {
    /** How often the packets sent so far are noted: fine enough to place a rate change within 0.1 s. */
    static final long PROGRESS_INTERVAL_NS = 100_000_000L;
    /** Readings kept: an hour at one per 0.1 s. */
    static final int MAX_PROGRESS_SAMPLES = 36_000;

    private final FrameSource source;
    private final RetransmitRing ring;
    private final LoadSocket socket;
    private final InetSocketAddress[] targets;
    private final Pacer pacer;
    private final long durationNs;
    private final SendProgress progress = new SendProgress(PROGRESS_INTERVAL_NS, MAX_PROGRESS_SAMPLES);
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile boolean stopRequested;
    private ScheduledFuture<?> ticks;
    private long startNs;
    private long startEpochMillis;
    private long sendNs;
    private long writeStalls;

    /**
     * @param targets the multicast address of each group index of {@code source}
     */
    SendLoop(FrameSource source, RetransmitRing ring, LoadSocket socket, InetSocketAddress[] targets, Pacer pacer) {
        this.source = source;
        this.ring = ring;
        this.socket = socket;
        this.targets = targets.clone();
        this.pacer = pacer;
        this.durationNs = pacer.schedule().totalNanos();
    }

    /** Starts ticking every {@code tickMicros} on {@code loop}; the future completes when sending is over. */
    CompletableFuture<Void> start(EventLoop loop, int tickMicros) {
        loop.execute(() -> {
            startNs = System.nanoTime();
            startEpochMillis = System.currentTimeMillis();
            progress.record(startNs, startEpochMillis, 0);
            ticks = loop.scheduleAtFixedRate(this::tick, 0, tickMicros, TimeUnit.MICROSECONDS);
        });
        return done;
    }

    /** Ends sending at the next tick; callable from any thread, before or after {@link #start}. */
    void stop() {
        stopRequested = true;
    }

    private void tick() {
        long now = System.nanoTime();
        long elapsed = Math.min(now - startNs, durationNs);
        boolean last = elapsed >= durationNs || stopRequested;
        if (socket.isWritable()) {
            int batch = pacer.batch(elapsed);
            for (int i = 0; i < batch; i++) {
                int slot = source.next();
                socket.send(targets[source.lastGroupIndex()], ring.frame(slot), ring.length(slot));
            }
            pacer.sent(batch);
            socket.flush();
        } else {
            writeStalls++;
        }
        if (last || progress.due(now)) {
            progress.record(now, System.currentTimeMillis(), pacer.sent());
        }
        if (last) {
            sendNs = elapsed;
            ticks.cancel(false);
            done.complete(null);
        }
    }

    /** Nanoseconds from the first tick to the end of sending (call once {@link #start}'s future completed). */
    long sendNanos() {
        return sendNs;
    }

    /** Packets due by the end but not sent. */
    long behindAtEnd() {
        return pacer.behind(sendNs);
    }

    /** When the first tick ran, in milliseconds since the epoch. */
    long startEpochMillis() {
        return startEpochMillis;
    }

    SendProgress progress() {
        return progress;
    }

    long writeStalls() {
        return writeStalls;
    }
}
