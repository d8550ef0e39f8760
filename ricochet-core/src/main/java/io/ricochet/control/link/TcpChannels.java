package io.ricochet.control.link;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoop;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Picks the TCP transport: epoll where the native library loads, NIO elsewhere, and channel classes to match. */
public final class TcpChannels {

    private TcpChannels() {
    }

    /** A new event loop group of {@code threads} threads named {@code name-*}: epoll if available, else NIO. */
    public static EventLoopGroup newGroup(int threads, String name) {
        DefaultThreadFactory threadFactory = new DefaultThreadFactory(name, true);
        return Epoll.isAvailable() ? new EpollEventLoopGroup(threads, threadFactory)
                : new NioEventLoopGroup(threads, threadFactory);
    }

    /** The client socket channel class that runs on {@code group} (an event loop group or one of its loops). */
    public static Class<? extends SocketChannel> socketChannel(EventLoopGroup group) {
        return isEpoll(group) ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** The server socket channel class that runs on {@code group}. */
    public static Class<? extends ServerSocketChannel> serverChannel(EventLoopGroup group) {
        return isEpoll(group) ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    private static boolean isEpoll(EventLoopGroup group) {
        return group instanceof EpollEventLoopGroup || group instanceof EpollEventLoop;
    }
}
