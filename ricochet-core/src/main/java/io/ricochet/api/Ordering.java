package io.ricochet.api;

/**
 * How a connection takes a group's messages (docs/api.md, "Ordering"), set per connection and group with the ORDER
 * request of protocol version 3. The wire value is the mode byte of ORDER.
 */
public enum Ordering {
    /** Each message as soon as it is complete (the default). */
    UNORDERED(0),
    /**
     * Each sender's messages in the group in the order its daemon accepted them: a gap waits until it is recovered
     * or reported LOST, and the LOST is delivered in its place.
     */
    FIFO(1);

    private final int wire;

    Ordering(int wire) {
        this.wire = wire;
    }

    /** The mode byte of ORDER. */
    public int wire() {
        return wire;
    }

    /** The ordering with this mode byte, or null for an unknown one. */
    public static Ordering of(int wire) {
        for (Ordering ordering : values()) {
            if (ordering.wire == wire) {
                return ordering;
            }
        }
        return null;
    }
}
