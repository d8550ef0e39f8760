package io.ricochet.daemon;

import io.ricochet.engine.Counter;

/** The daemon's own counters, around the engine's: what its network edge dropped before the engine saw it. */
public enum DaemonCounter implements Counter {
    RX_BUFFER_RANDOM_DROPS(31, "packets dropped at random from the driver's full receive buffer");

    private final int id;
    private final String description;

    DaemonCounter(int id, String description) {
        this.id = id;
        this.description = description;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String description() {
        return description;
    }
}
