package io.ricochet.control.tls;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits right after a server's {@code SslHandler}: a failed handshake (a plaintext client, a certificate from
 * another CA, an expired one, no certificate at all) or one that timed out is reported once to the {@link Listener}
 * and the connection closed; the TLS exceptions that come with it stop here, so the control handlers behind never
 * see them as malformed frames. A successful handshake reads the peer's {@link PeerIdentity} onto the channel
 * before any message arrives. Stateless and shared.
 */
@Sharable
public final class TlsServerGate extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(TlsServerGate.class);

    /** Hears about failed handshakes, on the channel's event loop. */
    public interface Listener {
        /** The handshake with {@code remote} failed for the reason {@code why} (one line); it is being closed. */
        void onHandshakeFailed(SocketAddress remote, String why);

        /**
         * The handshake with {@code remote} did not finish within the server's handshake timeout; it is being
         * closed. By default a failure like the others.
         */
        default void onHandshakeTimedOut(SocketAddress remote) {
            onHandshakeFailed(remote, "handshake timed out");
        }
    }

    private final Listener listener;

    public TlsServerGate(Listener listener) {
        this.listener = listener;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                PeerIdentity peer = PeerIdentity.of(ctx.channel());
                LOG.debug("TLS peer {} is {}", ctx.channel().remoteAddress(), peer);
            } else if (done.cause() instanceof SslHandshakeTimeoutException) {
                listener.onHandshakeTimedOut(ctx.channel().remoteAddress());
                ctx.close();
            } else {
                listener.onHandshakeFailed(ctx.channel().remoteAddress(), TlsFailures.describe(done.cause()));
                ctx.close();
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (TlsFailures.isTls(cause)) {
            LOG.debug("TLS error from {}: {}", ctx.channel().remoteAddress(), TlsFailures.describe(cause));
            ctx.close();
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }
}
