package io.ricochet.api.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.MalformedFrameException;
import java.util.List;

/**
 * Cuts the byte stream into frames at their u32 length prefix, which it strips. A length above the limit fails
 * at once (fail-fast, before the frame's bytes arrive), and input that ends inside a frame is reported as malformed
 * instead of being silently dropped.
 */
final class FrameSplitter extends LengthFieldBasedFrameDecoder {

    /** @param maxFrameLength the largest length field accepted */
    FrameSplitter(int maxFrameLength) {
        super(maxFrameLength + ApiProtocol.LENGTH_FIELD_LENGTH, 0, ApiProtocol.LENGTH_FIELD_LENGTH, 0,
                ApiProtocol.LENGTH_FIELD_LENGTH, true);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable()) {
            int pending = in.readableBytes();
            in.skipBytes(pending);
            throw new MalformedFrameException(0, "input ended inside a frame (" + pending + " bytes of it received)");
        }
    }
}
