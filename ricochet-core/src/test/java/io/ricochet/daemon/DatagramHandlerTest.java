package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.ricochet.auth.Authentication;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sockets' read bursts end the landing's batch once per wake-up of their loop, after every ready socket was
 * read, so a repair on one socket and the data it names on another reach the engine in one batch.
 */
class DatagramHandlerTest {
    /** Records the order of what happens on the loop. */
    private final List<String> events = new CopyOnWriteArrayList<>();

    private final Landing landing = new Landing(1, Authentication.insecure().newGuard(1)) {
        @Override
        void land(ByteBuf content) {
            events.add("land");
        }

        @Override
        void endOfWakeUp() {
            events.add("end of wake-up");
        }

        @Override
        int buffered() {
            return 0;
        }

        @Override
        long memoryBytes() {
            return 0;
        }
    };

    private static Channel bind(EventLoopGroup loop, ChannelHandler handler) throws InterruptedException {
        return new Bootstrap().group(loop).channel(NioDatagramChannel.class)
                .handler(new ChannelInitializer<NioDatagramChannel>() {
                    @Override
                    protected void initChannel(NioDatagramChannel ch) {
                        ch.pipeline().addLast(handler);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    /** Waits (up to 10 s) until the landing was told {@code n} bursts ended. */
    private void awaitEnds(long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (events.stream().filter("end of wake-up"::equals).count() < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    @Test
    void theBurstsOfEverySocketReadInOneWakeUpEndOneBatchAfterAllOfThem() throws Exception {
        EventLoopGroup loop = new NioEventLoopGroup(1);
        try {
            DatagramHandler handler = new DatagramHandler(landing);
            Channel unicast = bind(loop, handler);
            Channel group = bind(loop, handler);
            // One wake-up in which both sockets had datagrams: the unicast socket's burst first, then the group's.
            loop.submit(() -> {
                unicast.pipeline().fireChannelReadComplete();
                group.pipeline().fireChannelReadComplete();
                events.add("both sockets read");
            }).sync();
            awaitEnds(1);
            loop.submit(() -> events.add("later")).sync();
            assertEquals(List.of("both sockets read", "end of wake-up", "later"), events, "one end, after both");

            // A later wake-up with a read ends its own batch.
            loop.submit(() -> group.pipeline().fireChannelReadComplete()).sync();
            awaitEnds(2);
            loop.submit(() -> events.add("idle")).sync();
            assertEquals(List.of("both sockets read", "end of wake-up", "later", "end of wake-up", "idle"), events);
            unicast.close().sync();
            group.close().sync();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
