package io.ricochet.engine;

/**
 * One counter of a node: a stable numeric id (unique across every counter set, never reused once released), a
 * name and what it counts. Each layer defines its counters as an enum implementing this ({@link EngineCounter},
 * and the NAK layer's, LEC's, each protocol's and the daemon's own), and a protocol's {@link Counters} holds the
 * sets of the layers it is built from.
 */
public interface Counter {
    /** Ids are below this. */
    int MAX_ID = 256;

    /** Stable numeric id, in {@code [1, MAX_ID)}. */
    int id();

    /** The constant's name, as stats and result files show it. */
    String name();

    /** What it counts. */
    String description();

    /** What it measures in terms shared across protocols ({@link CounterRole#NONE} for most). */
    default CounterRole role() {
        return CounterRole.NONE;
    }
}
