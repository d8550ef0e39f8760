package io.ricochet.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;

/**
 * What arrives at a load generator's unicast socket: NAKs, answered at once through the {@link NakAnswerer};
 * the daemon's LEC repairs (a generator is a member of its groups, so receivers pick it as a repair target),
 * counted and dropped; anything else, counted and dropped. Runs on the socket's event loop.
 */
@ChannelHandler.Sharable
final class LoadInbound extends SimpleChannelInboundHandler<DatagramPacket> {
    private final NakAnswerer answerer;
    private final byte[] in = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
    private final byte[] out = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
    private LoadSocket socket;
    private long naks;
    private long repairs;
    private long others;

    LoadInbound(NakAnswerer answerer) {
        this.answerer = answerer;
    }

    /** The socket answers go out on; set once it is bound. */
    void answerOn(LoadSocket answerSocket) {
        this.socket = answerSocket;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf content = packet.content();
        int length = content.readableBytes();
        if (length < HeaderFlyweight.HEADER_LENGTH || length > in.length) {
            others++;
            return;
        }
        int type = content.getByte(content.readerIndex() + HeaderFlyweight.TYPE_OFFSET);
        if (type == FrameType.REPAIR) {
            repairs++;
            return;
        }
        if (type != FrameType.NAK || socket == null) {
            others++;
            return;
        }
        naks++;
        content.getBytes(content.readerIndex(), in, 0, length);
        int answer = answerer.answer(in, length, out);
        if (answer > 0) {
            socket.send(packet.sender(), out, answer);
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

    long repairs() {
        return repairs;
    }

    long others() {
        return others;
    }
}
