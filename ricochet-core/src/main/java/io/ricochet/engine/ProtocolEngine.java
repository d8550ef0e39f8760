package io.ricochet.engine;

/**
 * A sans-I/O reliable multicast protocol: no sockets, threads or clock of its own. The driver passes the current
 * time into every call and drains the {@link Outbox} the engine was built with. One thread owns an engine.
 *
 * <p>Peer input ({@link #onPacket}) never throws: malformed frames are counted and dropped. Application calls
 * ({@link #send}) throw {@link IllegalArgumentException} or {@link IllegalStateException} for caller errors.
 */
public interface ProtocolEngine {
    /** This node's id. */
    int nodeId();

    /** A frame arrived from the network. The engine copies whatever it keeps. */
    void onPacket(byte[] buffer, int offset, int length, long nowNs);

    /**
     * A datagram arrived from the network, {@code length} bytes from the start of {@code datagram}, which the caller
     * owns and lends for the call: the engine may keep the array itself rather than a copy of what it keeps (a
     * received data packet's payload, cached for recovery). Returns the array the caller holds from now on in its
     * place: {@code datagram} if the engine kept nothing of it, else another array of the same length, the
     * caller's now. By default the engine copies ({@link #onPacket}).
     */
    default byte[] onLentPacket(byte[] datagram, int length, long nowNs) {
        onPacket(datagram, 0, length, nowNs);
        return datagram;
    }

    /** Timers due at or before {@code nowNs} fire. */
    void onTimer(long nowNs);

    /** A membership change from the GMS (self included: a JOIN of this node makes it a member). */
    void onMembership(MembershipEvent event, long nowNs);

    /**
     * The GMS's regions of {@code group} (QSM regions, {@code docs/design/regions.md}): its members grouped by the
     * region they listen in, each set ascending; empty when the group has none. Given after the view's membership
     * events. Only a protocol that recovers by region uses it (qsm: no partition spans two regions); by default
     * ignored.
     */
    default void onRegions(int group, java.util.List<java.util.List<Integer>> regions, long nowNs) {
    }

    /**
     * The application multicasts {@code payload} to {@code group}; returns the packet's sequence number.
     *
     * @throws IllegalStateException if this node is not a member of {@code group}
     * @throws IllegalArgumentException if the payload is longer than the configured maximum
     */
    long send(int group, byte[] payload, int offset, int length, long nowNs);

    /** Packets this node has sent to {@code group}: the seqno its next {@link #send} there gets. */
    long sentTo(int group);

    /**
     * The earliest time at or after {@code nowNs} when a {@link #send} keeps the engine's promise to its receivers:
     * a protocol whose sender answers NAKs from a bounded buffer is ready once the oldest packet it would evict has
     * been held for as long as a receiver may still ask for it. A driver that paces its application (the daemon)
     * sends no earlier; one that does not (the simulator) may, and the oldest packet is then evicted early (counted).
     */
    default long sendReadyAtNs(long nowNs) {
        return nowNs;
    }

    /**
     * As {@link #sendReadyAtNs(long)}, for a send to {@code group}: a protocol that holds each group's sender to its
     * receivers' pace (a send window) says when the group's window has room as well.
     */
    default long sendReadyAtNs(int group, long nowNs) {
        return sendReadyAtNs(nowNs);
    }

    /**
     * How many senders of {@code group} this node, a new member, still waits to hear its join point from (the seqno
     * from which their data is for it: docs/design/security.md, "Join points"). The daemon answers an application's
     * JOIN once it is 0, so what those senders multicast after the answer is delivered. A protocol that starts
     * streams where they are first seen has none.
     */
    default int awaitingJoinPoints(int group) {
        return 0;
    }

    /** Earliest pending timer deadline, or {@link Long#MAX_VALUE} when none. */
    long nextDeadlineNs();

    /**
     * The first seqno of {@code origin}'s stream in {@code group} this node resolves (delivers or gives up: every
     * one from there on is resolved), or -1 if it has no such stream or does not say. The daemon reassembles
     * fragmented messages and orders deliveries from there (docs/design/daemon.md, "Fragmentation").
     */
    default long streamStart(int origin, int group) {
        StreamTable streams = streams();
        return streams == null ? -1 : streams.startOf(origin, group);
    }

    /**
     * A number for {@code origin}'s stream in {@code group} at this node that changes when the stream is replaced
     * (the sender restarted) or dropped, or -1 if there is none or the engine does not say.
     */
    default long streamId(int origin, int group) {
        StreamTable streams = streams();
        return streams == null ? -1 : streams.idOf(origin, group);
    }

    /** The engine's receive state per stream, which {@link #streamStart} and {@link #streamId} read; null if none. */
    default StreamTable streams() {
        return null;
    }

    /**
     * Whether every datagram of a stream from its {@link #streamStart} on is, in the end, delivered or given up
     * (reported lost). A protocol that promises only best effort does not, and the daemon then orders nothing.
     */
    default boolean resolvesEveryDatagram() {
        return true;
    }

    /** Live counters, owned by the engine's thread; take a {@link Counters#snapshot()} to publish them. */
    Counters counters();

    /**
     * Two-input XORs this engine has done building repairs (LEC's repair bins, section 4.2.5 of the paper), from
     * which the stats give the XORs per data packet received; 0 for a protocol that builds no XOR repairs.
     */
    default long repairXors() {
        return 0;
    }

    /** What each bounded buffer holds now (entries or bytes, as named), for stats; empty if none is reported. */
    default java.util.Map<String, Long> bufferUsage() {
        return java.util.Map.of();
    }
}
