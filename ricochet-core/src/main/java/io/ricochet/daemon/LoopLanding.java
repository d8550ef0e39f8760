package io.ricochet.daemon;

import io.netty.buffer.ByteBuf;
import io.ricochet.auth.FrameGuard;

/**
 * Datagrams read on the engine's own event loop (receive-thread off): they land in the driver's receive buffer, and
 * at the end of each wake-up's reads the driver processes the batch. One thread does everything; a burst of the
 * engine's work leaves datagrams waiting in the kernel's socket buffer.
 */
final class LoopLanding extends Landing {
    private final Landing.Engine driver;
    private final ReceiveBuffer buffer;

    LoopLanding(int self, FrameGuard guard, Landing.Engine driver, ReceiveBuffer buffer) {
        super(self, guard);
        this.driver = driver;
        this.buffer = buffer;
    }

    @Override
    void land(ByteBuf content) {
        keep(content, buffer, driver.counters());
    }

    @Override
    void endOfWakeUp() {
        driver.process(buffer);
    }

    @Override
    int buffered() {
        return buffer.size();
    }

    @Override
    long memoryBytes() {
        return buffer.memoryBytes();
    }
}
