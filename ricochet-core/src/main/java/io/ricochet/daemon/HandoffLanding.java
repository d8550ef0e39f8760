package io.ricochet.daemon;

import io.netty.buffer.ByteBuf;
import io.ricochet.auth.FrameGuard;
import io.ricochet.engine.Counters;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Datagrams read by a receive thread of their own (receive-thread on), as the paper's daemon drained the kernel into
 * its receive buffer (section 4.2.6). The buffer has two halves: the receive thread fills one while the engine's
 * thread processes the other. At the end of each wake-up's reads the engine is asked, once until it answers, to
 * take the filled half: it swaps the halves and processes that batch, control before data. A full half drops a
 * random datagram to make room (counted), so overload becomes scattered losses that LEC repairs; and because the
 * receive thread keeps the kernel's socket buffers drained while the engine works, a burst of the engine's work or a
 * short stall of its thread no longer overflows them (the kernel drops a tail of whatever arrives).
 *
 * <p>The receive thread lands each datagram under this object's lock, which the engine takes only to swap the
 * halves, once per batch. The receive thread counts its refusals and the buffer's drops in counters of its own,
 * added to the daemon's at each swap.
 */
final class HandoffLanding extends Landing {
    /** The counters the receive thread keeps, added to the daemon's at each swap. */
    private static final DaemonCounter[] LANDING_COUNTERS = {DaemonCounter.OWN_DATAGRAMS,
        DaemonCounter.BAD_DATAGRAM_SIZE, DaemonCounter.UNAUTHENTIC_DATAGRAMS, DaemonCounter.REPLAYED_DATAGRAMS,
        DaemonCounter.STALE_DATAGRAMS, DaemonCounter.RX_BUFFER_RANDOM_DROPS};

    private final Landing.Engine driver;
    private final Executor engine;
    /** The receive thread's counts not yet added to the daemon's; guarded by this. */
    private final Counters counts;
    /** The half the receive thread fills; guarded by this. */
    private ReceiveBuffer filling;
    /** The half the engine processes (empty between batches); swapped under the lock, drained by the engine. */
    private ReceiveBuffer processing;
    /** Whether the engine has been asked to take the filled half and has not yet done so. */
    private final AtomicBoolean asked = new AtomicBoolean();
    private final Runnable take = this::take;
    private final long memoryBytes;

    /**
     * @param engine runs a task on the engine's thread
     * @param counts the receive thread's counters, where both halves count their random drops
     * @param first  one half (its drops counted in {@code counts})
     * @param second the other half, of the same capacity
     */
    HandoffLanding(int self, FrameGuard guard, Landing.Engine driver, Executor engine, Counters counts,
                   ReceiveBuffer first, ReceiveBuffer second) {
        super(self, guard);
        this.driver = driver;
        this.engine = engine;
        this.counts = counts;
        this.filling = first;
        this.processing = second;
        this.memoryBytes = first.memoryBytes() + second.memoryBytes();
    }

    @Override
    void land(ByteBuf content) {
        synchronized (this) {
            keep(content, filling, counts);
        }
    }

    @Override
    void endOfWakeUp() {
        synchronized (this) {
            if (filling.size() == 0) {
                return; // nothing kept (our own multicast, refusals): no reason to wake the engine
            }
        }
        if (!asked.getAndSet(true)) {
            engine.execute(take);
        }
    }

    /** On the engine's thread: swaps the halves and processes the filled one. */
    private void take() {
        // Cleared before the swap: a datagram landed after the swap asks again, so none waits for a later burst.
        asked.set(false);
        ReceiveBuffer batch;
        synchronized (this) {
            batch = filling;
            filling = processing;
            processing = batch;
            foldCounts();
        }
        if (batch.size() > 0) {
            driver.process(batch);
        }
    }

    @Override
    void foldCounters() {
        synchronized (this) {
            foldCounts();
        }
    }

    private void foldCounts() {
        for (DaemonCounter counter : LANDING_COUNTERS) {
            long value = counts.get(counter);
            if (value != 0) {
                driver.counters().add(counter, value);
                counts.add(counter, -value);
            }
        }
    }

    @Override
    int buffered() {
        synchronized (this) {
            return filling.size() + processing.size();
        }
    }

    @Override
    long memoryBytes() {
        return memoryBytes;
    }
}
