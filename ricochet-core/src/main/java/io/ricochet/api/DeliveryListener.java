package io.ricochet.api;

/**
 * Receives what the daemon delivers for the groups a subscriber joined. Called on the daemon's engine thread:
 * implementations must not block (the API server only enqueues a frame for its connection).
 */
public interface DeliveryListener {
    /** A packet of {@code group} from {@code origin}; {@code payload} is the listener's to keep. */
    void delivered(int origin, int group, long seqno, byte[] payload);

    /**
     * A packet of {@code group} from {@code origin}, its payload {@code length} bytes of {@code bytes} at
     * {@code offset}, valid only during the call: the daemon hands every delivery this way, so a listener that
     * writes the payload somewhere (the API server, into its connection's buffer) copies it once. By default the
     * payload is copied and passed to {@link #delivered(int, int, long, byte[])}.
     */
    default void delivered(int origin, int group, long seqno, byte[] bytes, int offset, int length) {
        delivered(origin, group, seqno, java.util.Arrays.copyOfRange(bytes, offset, offset + length));
    }

    /** The packet (origin, group, seqno) will never be delivered: the NAK layer gave up on it. */
    void lost(int origin, int group, long seqno);

    /**
     * Whether this listener takes a packet sent through its own daemon (docs/api.md, "Local delivery"):
     * {@code own} is true when this listener's connection sent it. By default every local send is delivered.
     */
    default boolean acceptsLocal(boolean own) {
        return true;
    }

    /**
     * Whether this listener takes {@code group}'s messages in per-sender FIFO order (docs/api.md, "Ordering"): each
     * sender's messages in the order its daemon accepted them, a LOST in the place of the message it reports. By
     * default unordered: each message as soon as it is complete. Asked on the engine's thread, per delivery.
     */
    default boolean fifo(int group) {
        return false;
    }

    /**
     * The engine finished a batch (a burst of datagrams, a timer, a send): a listener that collects what it was handed
     * passes it on now, once per batch. By default listeners pass each delivery on as it comes.
     */
    default void endOfBatch() {
    }
}
