package io.ricochet.control.message;

import io.ricochet.control.codec.Ipv4;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * GMS to daemon or detector, the only message of a session a replica accepts while it does not lead the partition:
 * the current leader serves the partition at {@code leader} (its control address for this partition), or, when
 * empty, no leader is known yet (an election is under way: retry after a backoff). The replica then closes.
 * On the wire an unknown leader is {@code 0.0.0.0:0}.
 */
public record Redirect(Optional<InetSocketAddress> leader) implements ControlMessage {
    public Redirect {
        leader.ifPresent(address -> {
            Ipv4.require(address, "leader");
            if (address.getAddress().isAnyLocalAddress() || address.getPort() == 0) {
                throw new IllegalArgumentException("a leader at " + address + " cannot be reached; "
                        + "use an empty Redirect when the leader is unknown");
            }
        });
    }

    /** A redirect to {@code leader}. */
    public static Redirect to(InetSocketAddress leader) {
        return new Redirect(Optional.of(leader));
    }

    /** No leader known. */
    public static Redirect unknown() {
        return new Redirect(Optional.empty());
    }

    @Override
    public int type() {
        return MessageType.REDIRECT;
    }
}
