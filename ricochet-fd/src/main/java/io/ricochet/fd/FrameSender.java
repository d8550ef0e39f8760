package io.ricochet.fd;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one frame as one datagram, without flushing, and counts the sends that fail ({@link FdCounter#SEND_ERRORS}).
 * The one send path of the server: pings and answers to pings both go through it.
 */
final class FrameSender {
    private static final Logger LOG = LoggerFactory.getLogger(FrameSender.class);

    private final FdCounters counters;
    private final ChannelFutureListener countFailure;

    FrameSender(FdCounters counters) {
        this.counters = counters;
        this.countFailure = future -> {
            if (!future.isSuccess()) {
                counters.increment(FdCounter.SEND_ERRORS);
                LOG.debug("send failed", future.cause());
            }
        };
    }

    /** Queues {@code frame[0, length)} for {@code to}; the caller flushes. */
    void write(Channel channel, byte[] frame, int length, InetSocketAddress to) {
        ByteBuf content = channel.alloc().buffer(length).writeBytes(frame, 0, length);
        channel.write(new DatagramPacket(content, to)).addListener(countFailure);
    }
}
