package io.ricochet.loss;

/**
 * Decides, packet by packet, whether a packet arriving at one receiver is lost.
 *
 * <p>A model is consulted exactly once per packet considered, in arrival order, and each call to
 * {@link #shouldDrop()} advances its state: bursty models remember whether they are in the middle of a burst, so
 * skipping or repeating calls changes the loss pattern. Use one instance per receiver.
 *
 * <p>Every random choice comes from a {@link java.util.SplittableRandom} seeded at construction, so two models
 * built with the same parameters and seed produce the same drop sequence.
 *
 * <p>Implementations are stateful and not thread-safe; confine each instance to a single thread.
 */
@FunctionalInterface
public interface LossModel {

    /**
     * Considers the next arriving packet.
     *
     * @return {@code true} if the packet is lost and must not be delivered
     */
    boolean shouldDrop();

    /**
     * Considers the next arriving packet, arriving at {@code nowNs}. Models that do not change over time (all but
     * {@link PhasedLossModel}) ignore the time: this is exactly {@link #shouldDrop()}.
     *
     * @param nowNs the driver's time of the arrival
     * @return {@code true} if the packet is lost and must not be delivered
     */
    default boolean shouldDrop(long nowNs) {
        return shouldDrop();
    }

    /**
     * A model that never drops a packet.
     *
     * @return a stateless model whose {@link #shouldDrop()} always returns {@code false}
     */
    static LossModel none() {
        return () -> false;
    }
}
