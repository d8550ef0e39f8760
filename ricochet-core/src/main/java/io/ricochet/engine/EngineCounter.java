package io.ricochet.engine;

/**
 * The counters every protocol has: what it sent, received and delivered, the losses it found and how each ended,
 * its bounded stores' evictions, and the frames its input gate refused. Tests and benchmarks assert on them; ids
 * never change meaning once released.
 */
public enum EngineCounter implements Counter {
    DATA_SENT(1, "data packets multicast by this node"),
    DATA_RECEIVED(2, "data packets received (first copies)"),
    DUPLICATES(3, "data, retransmitted or recovered copies of packets already delivered or given up"),
    DELIVERED(4, "packets delivered to the application (direct + recovered)"),
    REPAIRS_USELESS(8, "proactive repairs (LEC or FEC) received that named no missing packet"),
    LOSSES_DETECTED(12, "lost packets discovered (sequence gap, or named in a repair, request or digest)"),
    RECOVERED_BY_NAK(15, "lost packets recovered by a retransmission (NAK answer, SRM repair, gossip)"),
    LATE_ARRIVALS(16, "packets discovered missing that then arrived as data"),
    UNRECOVERED(17, "lost packets given up and reported lost to the application"),
    DATA_CACHE_EVICTIONS(25, "received payloads evicted from the bounded cache kept to recover or answer from"),
    RETRANSMIT_BUFFER_EVICTIONS(26, "sent payloads evicted from the bounded retransmit buffer"),
    LOSS_TABLE_FULL(27, "losses given up at once because the pending-loss table was full"),
    INVALID_PACKETS(28, "frames rejected by the validator (malformed)"),
    NON_MEMBER(29, "frames for a group this node is not a member of"),
    OUT_OF_WINDOW(30, "repairs or announcements naming a seqno implausibly far ahead of its stream, or a TAIL of "
            + "another run of its sender than the one tracked (refused)"),
    RETRANSMITS_RECEIVED(32, "retransmissions received"),
    WINDOW_SLIDES(36, "packets so far ahead of a stream that its receive window slid (the skipped seqnos stay losses)"),
    STREAM_RESTARTS(37, "packets more than 64 windows ahead of their stream: tracking restarted there, the seqnos "
            + "between were neither delivered nor reported lost"),
    UNLISTED_ORIGINS(40, "frames of a stream this node has no state for, from a sender the GMS does not list in the "
            + "group (dropped: strangers get no state)"),
    STREAMS_PRUNED(41, "streams dropped after their sender left or failed (or this node left the group)"),
    REVEALS_DEFERRED(43, "packets not delivered on arrival because over 1024 seqnos below them were still unrevealed "
            + "(the gap is revealed 1024 at a time; the packet is recovered like any loss)");

    private final int id;
    private final String description;

    EngineCounter(int id, String description) {
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
