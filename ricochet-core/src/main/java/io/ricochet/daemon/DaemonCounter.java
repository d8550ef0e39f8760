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
    HEARTBEATS_ANSWERED(202, "failure-detector heartbeats answered (on the heartbeat socket, by its own thread)"),
    BAD_DATAGRAM_SIZE(203, "datagrams refused at the socket: shorter than a header or longer than the largest "
            + "datagram of this daemon's mtu"),
    STALE_VIEWS(204, "GMS views and member events ignored: older than the group's view already applied"),
    HEARTBEATS_WITHHELD(205, "heartbeats left unanswered because the engine thread had stalled (heartbeat-stall-ms)"),
    HEARTBEATS_REFUSED(206, "datagrams on the heartbeat socket that were not a valid HEARTBEAT"),
    SENDS_QUEUED(207, "application sends that waited in the send queue before the engine took them"),
    SENDS_BUSY(208, "application sends refused BUSY: the send queue was full, or TRY_SEND could not be taken at once"),
    SEND_QUEUE_PEAK(209, "the most sends waiting at once in the send queue (a high-water gauge)"),
    LOCAL_DELIVERIES(210, "packets sent by this daemon delivered to its own subscribers of the group"),
    UNAUTHENTIC_DATAGRAMS(211, "datagrams dropped at the socket: no valid authentication trailer (forged, another "
            + "cluster's key, unknown key id, or corrupted)"),
    REPLAYED_DATAGRAMS(212, "authentic datagrams dropped at a socket: their counter was already taken from that "
            + "source and frame type, or is older than the replay window (a replay)"),
    STALE_DATAGRAMS(213, "authentic datagrams dropped at a socket: sent further from this host's clock than "
            + "max-clock-skew-ms (a replay of an old capture, or a clock out of sync: check NTP)"),
    RX_BATCHES(214, "batches of received datagrams handed to the engine (datagrams per batch = received / this)"),
    RX_BATCH_PEAK(215, "the most datagrams handed to the engine in one batch (a high-water gauge)"),
    BUNDLES_SENT(216, "datagrams sent that carried more than one application message (bundle-bytes)"),
    BUNDLED_MESSAGES(217, "application messages sent in datagrams of more than one (messages per bundle = this / "
            + "BUNDLES_SENT)"),
    BUNDLE_PEAK(218, "the most application messages sent in one datagram (a high-water gauge)"),
    MALFORMED_DATAGRAMS(219, "DATA packets delivered by the engine whose payload is not a daemon's message or bundle "
            + "(an authenticated peer with a bug): reported LOST, as a whole"),
    OWN_DATAGRAMS(220, "datagrams naming this node as their source, dropped unread: its own multicast looped back by "
            + "the host (other daemons on the host need the loopback) or a forgery"),
    MEMBER_FAILURES(221, "members of this node's groups the GMS reported failed (a failure detector's verdict, "
            + "counted once per group it removed the member from)"),
    GROUP_LIMIT_REFUSALS(222, "JOINs refused with LIMIT_EXCEEDED: the node was in max-groups groups already (joins "
            + "in flight included)"),
    GSO_SENDS(223, "UDP GSO sends (gso): runs of datagrams of one length to one address sent as one, through the "
            + "sending stack once"),
    GSO_DATAGRAMS(224, "datagrams sent in UDP GSO sends (datagrams per GSO send = this / GSO_SENDS)"),
    HEARTBEATS_MISDIRECTED(225, "heartbeats of a detector listed in failure-detectors that came from another "
            + "address than its listed one: answered at the listed one only (a rewritten source address, or a list "
            + "that names another address of the detector)"),
    HEARTBEATS_UNLISTED(226, "heartbeats of a detector not listed in failure-detectors (when it lists any): left "
            + "unanswered, so that detector reports this node failed"),
    JOINS_BEFORE_JOIN_POINTS(227, "application JOINs answered before every sender of the group gave its join point "
            + "(after the wait's bound: such a sender's messages are delivered from its late join point on)"),
    MESSAGES_FRAGMENTED(181, "application messages too large for one datagram sent as fragments (max-message)"),
    FRAGMENTS_SENT(182, "datagrams of those messages' fragments"),
    MESSAGES_REASSEMBLED(183, "fragmented messages received whole and delivered"),
    MESSAGES_LOST(184, "fragmented messages reported LOST whole: a fragment was given up, memory was short "
            + "(REASSEMBLY_OVERFLOWS), it was too large (MESSAGES_TOO_LARGE), or its sender left before sending it "
            + "all"),
    FRAGMENTS_DROPPED(185, "fragments dropped: of a message already reported LOST, or begun before this node's join"),
    REASSEMBLY_OVERFLOWS(186, "fragmented messages given up because reassembly-buffer (or a sender's half of it) was "
            + "full"),
    MESSAGES_TOO_LARGE(187, "fragmented messages given up because they were larger than this daemon's max-message"),
    FIFO_HELD(188, "deliveries held back for FIFO subscribers until the messages before them were resolved"),
    FIFO_HELD_US(191, "microseconds the deliveries counted in FIFO_HELD were held, in all (mean = this / FIFO_HELD)"),
    FIFO_HELD_PEAK_US(192, "the longest a delivery was held for FIFO subscribers, in microseconds (a high-water "
            + "gauge)"),
    FIFO_OUT_OF_ORDER(189, "deliveries handed to FIFO subscribers out of order: fifo-buffer was full"),
    MESSAGE_CURSOR_JUMPS(190, "message streams restarted far ahead of what was resolved (a gap the engine never "
            + "resolves: see STREAM_RESTARTS)");

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
