package io.ricochet.control.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.tls.TlsFailures;
import io.ricochet.control.tls.TlsServerGate;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The Netty handlers of the control protocol, the same on the GMS and on its clients: a
 * {@link LengthFieldBasedFrameDecoder} (64 KiB, fail-fast, strips the length field), a decoder to
 * {@link ControlMessage} and an encoder from it, all through {@link ControlCodec}.
 *
 * <p>Every malformed input reaches {@code exceptionCaught} of the next handler as a {@link DecoderException}
 * (an oversized or corrupt length from the frame decoder, or a {@link ControlDecodeException} as its cause);
 * {@link #describe} turns either into one line for an {@link ErrorCode#MALFORMED_FRAME} reply.
 *
 * <p>With TLS on ({@link TlsSettings#enabled()}) an {@code SslHandler} comes first, so everything after it sees
 * plaintext frames; the server's {@link TlsServerGate} follows it and keeps TLS errors from the control handlers.
 * A TLS error is never "malformed input".
 */
public final class ControlPipeline {

    private ControlPipeline() {
    }

    /** Adds the frame decoder, message decoder and message encoder at the end of {@code pipeline}. */
    public static void install(ChannelPipeline pipeline) {
        pipeline.addLast("control-frames", new LengthFieldBasedFrameDecoder(ControlCodec.MAX_FRAME_BYTES,
                0, ControlCodec.LENGTH_FIELD_BYTES, 0, ControlCodec.LENGTH_FIELD_BYTES, true));
        pipeline.addLast("control-decoder", Decoder.INSTANCE);
        pipeline.addLast("control-encoder", Encoder.INSTANCE);
    }

    /** The TLS handshake timeout of {@link #installServer(Channel, TlsSettings, TlsServerGate)}. */
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MS = 1_000;

    /** As below, with a handshake timeout of {@link #DEFAULT_HANDSHAKE_TIMEOUT_MS}. */
    public static void installServer(Channel channel, TlsSettings tls, TlsServerGate failures) {
        installServer(channel, tls, failures, DEFAULT_HANDSHAKE_TIMEOUT_MS);
    }

    /**
     * The server side of a connection: TLS (client certificate required) and the gate reporting failed handshakes
     * to {@code failures} when {@code tls} is on, then the control handlers. A handshake not finished within
     * {@code handshakeTimeoutMs} of the connection fails (Netty's default, 10 s, let a connection that sends
     * nothing hold its place that long), and the gate reports it as timed out.
     */
    public static void installServer(Channel channel, TlsSettings tls, TlsServerGate failures,
                                     long handshakeTimeoutMs) {
        if (tls.enabled()) {
            SslHandler ssl = tls.newServerHandler(channel.alloc());
            ssl.setHandshakeTimeoutMillis(handshakeTimeoutMs);
            channel.pipeline().addLast("tls", ssl);
            channel.pipeline().addLast("tls-gate", failures);
        }
        install(channel.pipeline());
    }

    /** The client side of a connection to {@code remote}: TLS when {@code tls} is on, then the control handlers. */
    public static void installClient(Channel channel, TlsSettings tls, InetSocketAddress remote) {
        if (tls.enabled()) {
            channel.pipeline().addLast("tls", tls.newClientHandler(channel.alloc(), remote));
        }
        install(channel.pipeline());
    }

    /** Whether {@code cause} means the peer sent bytes that are not the control protocol (TLS errors are not). */
    public static boolean isMalformedInput(Throwable cause) {
        return cause instanceof DecoderException && !TlsFailures.isTls(cause);
    }

    /** One line saying what was malformed, for logs and error replies. */
    public static String describe(Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }

    /** Frames to messages; a frame that does not decode becomes a {@link DecoderException}. */
    @Sharable
    static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
        static final Decoder INSTANCE = new Decoder();

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out)
                throws ControlDecodeException {
            out.add(ControlCodec.decode(frame));
        }
    }

    /** Messages to frames. */
    @Sharable
    static final class Encoder extends MessageToByteEncoder<ControlMessage> {
        static final Encoder INSTANCE = new Encoder();

        @Override
        protected void encode(ChannelHandlerContext ctx, ControlMessage message, ByteBuf out) {
            ControlCodec.encode(message, out);
        }
    }
}
