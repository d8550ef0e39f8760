package io.ricochet.api.server;

/**
 * The local API server's counters: a stable, enumerated public API, reported under {@code "api"} in STATS replies
 * and by {@link ApiServer#counters()}. Ids never change meaning once released.
 */
public enum ApiCounter {
    CONNECTIONS_ACCEPTED(1, "client connections accepted"),
    CONNECTIONS_OPEN(2, "client connections open now (a gauge)"),
    FRAMES_IN(3, "well-formed frames received from clients"),
    FRAMES_OUT(4, "frames sent to clients"),
    MALFORMED_FRAMES(5, "frames refused as malformed, oversized, truncated, unknown or out of order; "
            + "each closes its connection"),
    REQUESTS_FAILED(6, "requests answered with ERROR"),
    DELIVERIES_DROPPED(7, "DELIVER and LOST frames dropped because a connection's write buffer was full"),
    OVERFLOWS_SENT(8, "OVERFLOW frames sent to tell a connection how many frames it lost"),
    PEAK_OUTBOUND_BYTES(9, "largest write buffer seen on one connection, in bytes (a high-water gauge)");

    private final int id;
    private final String description;

    ApiCounter(int id, String description) {
        this.id = id;
        this.description = description;
    }

    /** Stable numeric id. */
    public int id() {
        return id;
    }

    public String description() {
        return description;
    }
}
