package io.ricochet.fd;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
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
    private final FrameGuard guard;
    private final byte[] sealed = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];

    /** @param guard seals every frame sent (the channel's event loop owns it) */
    FrameSender(FdCounters counters, FrameGuard guard) {
        this.counters = counters;
        this.guard = guard;
        this.countFailure = future -> {
            if (!future.isSuccess()) {
                counters.increment(FdCounter.SEND_ERRORS);
                LOG.debug("send failed", future.cause());
            }
        };
    }

    /**
     * Queues {@code frame[0, length)}, sealed for the process whose wire id is {@code destination}, for {@code to};
     * the caller flushes.
     */
    void write(Channel channel, byte[] frame, int length, InetSocketAddress to, int destination) {
        System.arraycopy(frame, 0, sealed, 0, length);
        int datagram = guard.seal(sealed, 0, length, destination);
        ByteBuf content = channel.alloc().buffer(datagram).writeBytes(sealed, 0, datagram);
        channel.write(new DatagramPacket(content, to)).addListener(countFailure);
    }
}
