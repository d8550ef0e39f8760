package io.ricochet.api.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import java.util.List;

/**
 * Turns split frames into {@link ApiFrame}s and frames into bytes, counting both ways. A malformed frame surfaces
 * as a {@code DecoderException} caused by {@code MalformedFrameException}, which {@link ApiConnection} answers.
 */
final class FrameCodecHandler extends MessageToMessageCodec<ByteBuf, ApiFrame> {
    private final ApiCounters counters;

    FrameCodecHandler(ApiCounters counters) {
        this.counters = counters;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) throws Exception {
        out.add(ApiFrameCodec.decode(frame));
        counters.increment(ApiCounter.FRAMES_IN);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ApiFrame frame, List<Object> out) {
        ByteBuf bytes = ctx.alloc().ioBuffer(ApiFrameCodec.encodedLength(frame));
        ApiFrameCodec.encode(frame, bytes);
        out.add(bytes);
        counters.increment(ApiCounter.FRAMES_OUT);
    }
}
