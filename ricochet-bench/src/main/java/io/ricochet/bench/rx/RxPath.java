package io.ricochet.bench.rx;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

/** A way of reading datagrams from one multicast socket into byte arrays, counting them, on one thread. */
abstract class RxPath implements AutoCloseable {
    private final AtomicLong received = new AtomicLong();
    private volatile long threadId = -1;

    /** Called once on the reading thread, before it reads. */
    final void onReadingThread() {
        threadId = Thread.currentThread().getId();
    }

    /** Called on the reading thread for each datagram copied out. */
    final void countOne() {
        received.lazySet(received.get() + 1);
    }

    /** Datagrams read and copied out so far (any thread). */
    final long received() {
        return received.get();
    }

    /** CPU time of the reading thread so far, ns. */
    final long threadCpuNs() {
        long id = threadId;
        return id < 0 ? 0 : ManagementFactory.getThreadMXBean().getThreadCpuTime(id);
    }

    @Override
    public abstract void close() throws Exception;
}
