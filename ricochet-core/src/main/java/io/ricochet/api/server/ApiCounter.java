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
    PEAK_OUTBOUND_BYTES(9, "largest write buffer seen on one connection, in bytes (a high-water gauge)"),
    CONNECTIONS_REFUSED(10, "connections refused with LIMIT_EXCEEDED because maxConnections were open"),
    HELLO_TIMEOUTS(11, "connections closed because no HELLO came within the HELLO timeout"),
    PARTIAL_FRAME_TIMEOUTS(12, "connections closed because a started frame was not complete within the timeout"),
    REQUESTS_IN_FLIGHT(13, "requests started whose replies are not yet written, all connections (a gauge)"),
    PEAK_REQUESTS_IN_FLIGHT(14, "most requests in flight seen on one connection (a high-water gauge)"),
    READS_PAUSED(15, "times a connection stopped being read because maxRequestsInFlight requests were in flight"),
    GROUP_LIMIT_REFUSALS(16, "JOINs refused with LIMIT_EXCEEDED because of maxGroupsPerConnection"),
    ACCEPT_ERRORS(17, "failures to accept a connection, such as running out of file descriptors"),
    DROPPED_SENT(18, "DROPPED frames sent, each naming a run of messages dropped for a connection"),
    UNNAMED_DROPS(19, "dropped DELIVER and LOST frames no DROPPED names: the connection's ledger of runs was full"),
    TCP_OPEN(20, "1 while the API listens on TCP, where any local user may connect and use it (a gauge)"),
    PRINCIPAL_CONNECTION_REFUSALS(21, "connections refused with LIMIT_EXCEEDED because their user (uid, or 'tcp') "
            + "had maxConnectionsPerPrincipal open"),
    PRINCIPAL_GROUP_REFUSALS(22, "JOINs refused with LIMIT_EXCEEDED because their user held maxGroupsPerPrincipal "
            + "groups"),
    SEND_RATE_REFUSALS(23, "SENDs and TRY_SENDs refused with BUSY because their user was over "
            + "maxSendsPerSecondPerPrincipal"),
    ACCESS_REFUSALS(24, "JOINs, SENDs and TRY_SENDs refused with NOT_PERMITTED by the group's allow list"),
    LARGE_FRAME_BYTES(25, "bytes held now by frames above the classic frame limit (version 3 SENDs), from their length "
            + "prefix until their reply is written, all connections (a gauge; at most the large frame budget)"),
    LARGE_FRAME_WAITS(26, "times a connection stopped being read because the large frame budget could not take its "
            + "next frame"),
    OVERSIZE_DROPS(27, "messages not delivered to a connection because they exceed the frame limit its protocol "
            + "version accepts (16 MiB for versions 1 and 2); named in DROPPED (version 2) or counted in OVERFLOW");

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
