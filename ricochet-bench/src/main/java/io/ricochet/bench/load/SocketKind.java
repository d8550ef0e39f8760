package io.ricochet.bench.load;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.ricochet.support.ParsingConverter;
import java.util.Locale;

/** Which Netty socket implementation a bench process uses: native epoll when available ({@code auto}), or NIO. */
public enum SocketKind {
    AUTO, EPOLL, NIO;

    /**
     * Parses {@code auto}, {@code epoll} or {@code nio}.
     *
     * @throws IllegalArgumentException with a message fit for a user otherwise
     */
    public static SocketKind parse(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("transport '" + text + "': use auto, epoll or nio");
        }
    }

    /** Whether this choice means epoll here; refuses {@code epoll} where native epoll is not available. */
    public boolean useEpoll() {
        if (this == EPOLL && !Epoll.isAvailable()) {
            throw new IllegalStateException("transport epoll: native epoll is not available here ("
                    + Epoll.unavailabilityCause() + ")");
        }
        return this == EPOLL || (this == AUTO && Epoll.isAvailable());
    }

    /** A single-threaded event loop group of the chosen kind; the caller shuts it down. */
    public EventLoopGroup newLoop() {
        return useEpoll() ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
    }

    /** Picocli converter for {@code --transport}. */
    public static final class Converter extends ParsingConverter<SocketKind> {
        public Converter() {
            super(SocketKind::parse);
        }
    }
}
