package io.ricochet.daemon;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's Netty edge, shared by its receiving sockets: each datagram goes to the {@link Landing}, and once every
 * socket that was ready in a wake-up of their loop has been read, the landing hands the batch on. Ending the batch
 * per wake-up rather than per socket keeps a repair read from the unicast socket in the batch of the data it names,
 * read from a group socket in the same wake-up: the batch orders data before repairs, where two batches would hand
 * the engine the repair first and make it count and rebuild packets that were only waiting in the next socket. Peer
 * input never escapes as an exception.
 *
 * <p>All the sockets it serves are on one single-threaded loop (the receive thread's, or the engine's), so its own
 * state needs no lock.
 */
@ChannelHandler.Sharable
final class DatagramHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger LOG = LoggerFactory.getLogger(DatagramHandler.class);

    private final Landing landing;
    /** Whether the end of the loop's current wake-up is already to end the burst. */
    private boolean ending;
    private final Runnable endOfWakeUp = this::endOfWakeUp;

    DatagramHandler(Landing landing) {
        this.landing = landing;
    }

    private void endOfWakeUp() {
        ending = false;
        landing.endOfWakeUp();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        landing.land(packet.content());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        EventLoop loop = ctx.channel().eventLoop();
        if (!(loop instanceof SingleThreadEventLoop single)) {
            landing.endOfWakeUp(); // no hook after the loop's iteration here: each socket's burst is its own batch
            return;
        }
        if (!ending) {
            ending = true;
            // Runs after the loop has processed every ready socket (and its tasks) of this wake-up.
            single.executeAfterEventLoopIteration(endOfWakeUp);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A socket error is logged once per occurrence; it never reaches the engine.
        LOG.warn("socket error on {}: {}", ctx.channel().localAddress(), cause.toString());
    }
}
