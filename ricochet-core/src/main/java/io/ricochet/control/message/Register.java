package io.ricochet.control.message;

import io.ricochet.control.codec.Ipv4;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Daemon to GMS, first on every connection: this connection speaks for {@code nodeId}, whose repairs, NAKs and
 * retransmissions reach it at the IPv4 {@code unicast} address. The {@code incarnation} (u64, carried in a
 * {@code long}) is picked once per daemon process start: a new value means a restarted daemon whose multicast
 * sequence numbers start again at 0, the same value the same process reconnecting. The node sits in rack
 * {@code rack} (u16; 0: no rack, so no rack detector is told to watch it) and answers heartbeats on the unicast
 * address's IP at {@code heartbeatPort} (u16; 0: none). The GMS answers with a {@link GroupView} of every group of
 * its partition the node is in, and tells the detectors of the node's rack to watch it ({@link WatchList}).
 *
 * <p>An authenticated daemon names its cluster {@code keys} ({@link KeyFingerprint}s, the send key first, at most
 * {@link #MAX_KEYS}), so that the GMS refuses a daemon whose key differs from the cluster's (ERROR KEY_MISMATCH)
 * instead of letting it look up while nobody can read its datagrams; an insecure daemon names none.
 */
public record Register(int nodeId, InetSocketAddress unicast, long incarnation, int rack, int heartbeatPort,
                       List<KeyFingerprint> keys) implements ControlMessage {
    /** The rack of a node that says none. */
    public static final int NO_RACK = 0;
    /** Keys a REGISTER may name: as many as a key file holds. */
    public static final int MAX_KEYS = 2;

    public Register {
        Ipv4.require(unicast, "unicast");
        Fields.requireU16(rack, "rack");
        Fields.requireU16(heartbeatPort, "heartbeat port");
        keys = List.copyOf(keys);
        if (keys.size() > MAX_KEYS) {
            throw new IllegalArgumentException("at most " + MAX_KEYS + " keys, got " + keys.size());
        }
        if (keys.size() == 2 && keys.get(0).keyId() == keys.get(1).keyId()) {
            throw new IllegalArgumentException("key id " + keys.get(0).keyId() + " named twice");
        }
    }

    /** An unauthenticated node (no keys). */
    public Register(int nodeId, InetSocketAddress unicast, long incarnation, int rack, int heartbeatPort) {
        this(nodeId, unicast, incarnation, rack, heartbeatPort, List.of());
    }

    /** A node in no rack, with no heartbeat port, no keys. */
    public Register(int nodeId, InetSocketAddress unicast, long incarnation) {
        this(nodeId, unicast, incarnation, NO_RACK, 0);
    }

    /** Where the node answers heartbeats: the unicast IP at the heartbeat port (port 0 if it has none). */
    public InetSocketAddress heartbeat() {
        return new InetSocketAddress(unicast.getAddress(), heartbeatPort);
    }

    @Override
    public int type() {
        return MessageType.REGISTER;
    }
}
