package io.ricochet.sim;

import io.ricochet.engine.Delivery;

/**
 * Watches a simulation run event by event, for measurements the run's {@link SimResult} does not hold (throughput
 * over time, receivers per message). Called on the simulator's thread, in virtual-time order; must not throw.
 */
public interface SimObserver {
    /** Node {@code origin} multicast {@code seqno} of {@code group} at {@code nowNs}. */
    default void sent(int origin, int group, long seqno, long nowNs) {
    }

    /** Node {@code node} handed a frame of {@code type} to its engine at {@code nowNs}. */
    default void received(int node, int type, long nowNs) {
    }

    /** Node {@code node} delivered {@code seqno} of {@code origin} in {@code group}, {@code how}, at {@code nowNs}. */
    default void delivered(int node, int origin, int group, long seqno, Delivery how, long nowNs) {
    }
}
