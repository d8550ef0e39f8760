package io.ricochet.control;

import java.net.InetSocketAddress;

/**
 * Daemon to GMS, first on every connection: this connection speaks for {@code nodeId}, whose repairs, NAKs and
 * retransmissions reach it at the IPv4 {@code unicast} address. The {@code incarnation} (u64, carried in a
 * {@code long}) is picked once per daemon process start: a new value means a restarted daemon whose multicast
 * sequence numbers start again at 0, the same value the same process reconnecting. The GMS answers with a
 * {@link GroupView} of every group of its partition the node is in.
 */
public record Register(int nodeId, InetSocketAddress unicast, long incarnation) implements ControlMessage {
    public Register {
        Ipv4.require(unicast, "unicast");
    }

    @Override
    public int type() {
        return MessageType.REGISTER;
    }
}
