package io.ricochet.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.net.InetSocketAddress;
import java.util.function.IntFunction;

/**
 * What arrives at a load generator's unicast socket, each datagram opened by the {@link FrameGuard} before anything
 * reads it (as the daemon's handler does: one not authentic, or replayed, is counted and dropped): NAKs, answered at
 * once through the {@link NakAnswerer} to
 * the unicast address the NAK's source registered with the GMS (a daemon with a receive thread sends from another
 * port, which nothing reads), and counted unanswered from a node no view of ours lists;
 * the daemon's LEC repairs (a generator is a member of its groups, so receivers pick it as a repair target),
 * counted and dropped; anything else, counted and dropped. Runs on the socket's event loop.
 */
@ChannelHandler.Sharable
final class LoadInbound extends SimpleChannelInboundHandler<DatagramPacket> {
    private final NakAnswerer answerer;
    private final IntFunction<InetSocketAddress> unicastOf;
    private final FrameGuard guard;
    private final byte[] in = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
    private final byte[] out = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
    private LoadSocket socket;
    private long naks;
    private long naksFromStrangers;
    private long repairs;
    private long others;
    private long unauthentic;

    /**
     * @param unicastOf a node's registered unicast address, or null if unknown
     * @param guard     opens every datagram received (the process's authentication; a pass-through when insecure)
     */
    LoadInbound(NakAnswerer answerer, IntFunction<InetSocketAddress> unicastOf, FrameGuard guard) {
        this.answerer = answerer;
        this.guard = guard;
        this.unicastOf = unicastOf;
    }

    /** The socket answers go out on; set once it is bound. */
    void answerOn(LoadSocket answerSocket) {
        this.socket = answerSocket;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf content = packet.content();
        int datagram = content.readableBytes();
        if (datagram < HeaderFlyweight.HEADER_LENGTH || datagram > in.length) {
            others++;
            return;
        }
        content.getBytes(content.readerIndex(), in, 0, datagram);
        int length = guard.open(in, 0, datagram);
        if (length < 0) {
            unauthentic++;
            return;
        }
        int type = in[HeaderFlyweight.TYPE_OFFSET];
        if (type == FrameType.REPAIR) {
            repairs++;
            return;
        }
        if (type != FrameType.NAK || socket == null) {
            others++;
            return;
        }
        naks++;
        int requester = Bytes.getInt(in, HeaderFlyweight.SOURCE_OFFSET);
        InetSocketAddress to = unicastOf.apply(requester);
        if (to == null) {
            naksFromStrangers++;
            return;
        }
        int answer = answerer.answer(in, length, out);
        if (answer > 0) {
            socket.send(to, requester, out, answer);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (socket != null) {
            socket.flush();
        }
    }

    NakAnswerer answerer() {
        return answerer;
    }

    long naks() {
        return naks;
    }

    /** NAKs from a node no view of our groups lists: not answered. */
    long naksFromStrangers() {
        return naksFromStrangers;
    }

    long repairs() {
        return repairs;
    }

    long others() {
        return others;
    }

    /** Datagrams dropped unopened: not authentic (no or a bad trailer, an unknown key), stale or replayed. */
    long unauthentic() {
        return unauthentic;
    }
}
