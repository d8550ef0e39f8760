package io.ricochet.daemon;

import io.ricochet.engine.Counter;

/**
 * The daemon's own counters, around the engine's: what its network edge refused or dropped before the engine saw
 * it, what it answered itself, and what it could not send. Ids never change meaning once released.
 */
public enum DaemonCounter implements Counter {
    RX_BUFFER_RANDOM_DROPS(31, "packets dropped at random from the daemon's full receive buffer (section 4.2.6)"),
    INJECTED_DROPS(200, "packets dropped by the injected loss model (--inject-loss) before the engine saw them"),
    UNKNOWN_DESTINATIONS(201, "frames not sent: no address known yet for the destination node or group"),
    HEARTBEATS_ANSWERED(202, "failure-detector heartbeats answered on the unicast socket"),
    BAD_DATAGRAM_SIZE(203, "datagrams refused at the socket: shorter than a header or longer than a frame"),
    STALE_VIEWS(204, "GMS views and member events ignored: older than the group's view already applied");

    /** Every daemon counter, in id order. */
    public static final java.util.List<Counter> ALL = java.util.List.of(values());

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
