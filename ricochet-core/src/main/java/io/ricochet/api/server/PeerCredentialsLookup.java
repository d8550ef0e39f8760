package io.ricochet.api.server;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.channel.unix.PeerCredentials;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the {@link Principal} of a new API connection. The real lookup reads a Unix socket peer's uid and gid with
 * SO_PEERCRED (Netty's {@link EpollDomainSocketChannel#peerCredentials()}); tests give their own to play several
 * users on one machine.
 */
@FunctionalInterface
interface PeerCredentialsLookup {
    Logger LOG = LoggerFactory.getLogger(PeerCredentialsLookup.class);

    /** The principal on the other end of {@code channel}; never null, never throws. */
    Principal principal(Channel channel);

    /**
     * The real lookup: TCP connections are {@link Principal#TCP}; an epoll Unix socket connection is its peer's
     * uid and gid; any other Unix socket connection (no epoll), or one whose credentials cannot be read, is
     * {@link Principal#UNKNOWN}, which no allow list admits.
     */
    static PeerCredentialsLookup real() {
        return channel -> {
            if (channel instanceof EpollDomainSocketChannel unix) {
                try {
                    PeerCredentials credentials = unix.peerCredentials();
                    // SO_PEERCRED carries one gid (the peer's effective one), which Netty gives as gids()[0].
                    int[] gids = credentials.gids();
                    if (gids.length == 0) {
                        return Principal.UNKNOWN;
                    }
                    return Principal.of(credentials.uid(), gids[0]);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("cannot read the peer credentials of API connection {}: {}", channel, e.toString());
                    return Principal.UNKNOWN;
                }
            }
            return channel instanceof DomainSocketChannel ? Principal.UNKNOWN : Principal.TCP;
        };
    }
}
