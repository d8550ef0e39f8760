package io.ricochet.control;

import java.net.InetSocketAddress;

/**
 * Daemon to GMS, first on every connection: this connection speaks for {@code nodeId}, whose repairs, NAKs and
 * retransmissions reach it at the IPv4 {@code unicast} address. The GMS answers with a {@link GroupView} of every
 * group of its partition the node is in.
 */
public record Register(int nodeId, InetSocketAddress unicast) implements ControlMessage {
    public Register {
        Ipv4.require(unicast, "unicast");
    }

    @Override
    public int type() {
        return MessageType.REGISTER;
    }
}
