package io.ricochet.engine;

/**
 * Everything a {@link ProtocolEngine} produces goes here; the driver (simulator or daemon) implements it.
 *
 * <p>Byte ranges passed to these methods are valid only for the duration of the call: the engine reuses its
 * scratch buffers, so a driver that keeps a frame or payload must copy it. An implementation must not call back
 * into the engine from inside these methods.
 */
public interface Outbox {
    /** Multicast a frame to every member of {@code group}. */
    void multicast(int group, byte[] frame, int offset, int length);

    /** Send a frame by unicast to {@code node}. */
    void unicast(int node, byte[] frame, int offset, int length);

    /** Deliver a data packet to the application; called exactly once per packet id. */
    void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how);

    /** The packet will never be delivered: the NAK layer gave up on it (or LEC alone did, with NAK off). */
    void lost(int origin, int group, long seqno, long discoveredNs);

    /** The engine wants {@link ProtocolEngine#onTimer(long)} called at or soon after {@code deadlineNs}. */
    void wakeAt(long deadlineNs);

    /** A loss was discovered (a sequence gap or an id listed in a repair). For measurement; default ignores it. */
    default void lossDiscovered(int origin, int group, long seqno, long nowNs) {
    }
}
