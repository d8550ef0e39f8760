package io.ricochet.bench.jmh;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.Outbox;

/** Drops every action: the benchmarks measure the engine, not a driver. */
final class NoOpOutbox implements Outbox {
    @Override
    public void multicast(int group, byte[] frame, int offset, int length) {
    }

    @Override
    public void unicast(int node, byte[] frame, int offset, int length) {
    }

    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
    }

    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
    }

    @Override
    public void wakeAt(long deadlineNs) {
    }
}
