package io.ricochet.api;

import java.util.concurrent.CompletableFuture;

/**
 * What the local TCP API needs from the daemon of this blade. Every method may be called from any thread; the
 * daemon hands the work to the thread that owns its protocol engine and completes the future from there.
 * A future fails with {@link ApiException} for a caller error (unknown group, payload too large, ...).
 */
public interface LocalNode {
    /** This daemon's node id. */
    int nodeId();

    /**
     * Largest payload a version 1 or 2 API connection may SEND, in bytes: what fits one datagram (docs/api.md,
     * "Limits").
     */
    int maxPayload();

    /**
     * Largest message {@link #send} accepts, in bytes (the daemon's {@code max-message}): a message above
     * {@link #maxPayload} is cut into fragments, one datagram each, and reassembled whole by every receiver
     * (docs/design/daemon.md, "Fragmentation"). By default no larger than a datagram.
     */
    default int maxMessage() {
        return maxPayload();
    }

    /**
     * Subscribes {@code listener} to {@code group}, joining the group through the GMS if no other local
     * subscriber is in it yet. Deliveries and loss notifications for the group go to every subscribed listener.
     */
    CompletableFuture<Void> join(int group, DeliveryListener listener);

    /** Unsubscribes {@code listener}; the daemon leaves the group when its last local subscriber leaves. */
    CompletableFuture<Void> leave(int group, DeliveryListener listener);

    /**
     * Multicasts {@code payload} to {@code group} (this node must have joined it) and delivers it to the group's
     * local subscribers that {@link DeliveryListener#acceptsLocal accept it}; completes with the seqno once the
     * protocol engine took the packet. The daemon takes sends at the pace it can hold them (a bounded send queue, an
     * optional rate limit, a retransmit buffer sized by time): with {@code wait} the future completes when the
     * packet's turn comes, without it a send that cannot be taken at once fails with {@link ApiException.Code#BUSY}.
     *
     * @param from the sending connection's listener (it is told {@code own} for its own sends), or null
     */
    CompletableFuture<Long> send(int group, byte[] payload, DeliveryListener from, boolean wait);

    /** A snapshot of the daemon's counters, latencies, buffers and membership. */
    CompletableFuture<NodeStats> stats();
}
