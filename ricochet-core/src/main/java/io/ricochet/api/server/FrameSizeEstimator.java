package io.ricochet.api.server;

import io.netty.channel.DefaultMessageSizeEstimator;
import io.netty.channel.MessageSizeEstimator;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;

/**
 * Sizes a frame written to a channel by its encoded length. Netty adds this size to the connection's pending
 * outbound bytes as soon as the daemon's engine thread submits the write, so the write-buffer water marks, and
 * with them the backpressure policy, see frames that are still queued for the I/O thread.
 */
final class FrameSizeEstimator implements MessageSizeEstimator {
    static final FrameSizeEstimator INSTANCE = new FrameSizeEstimator();

    private static final Handle HANDLE = new Handle() {
        private final Handle fallback = DefaultMessageSizeEstimator.DEFAULT.newHandle();

        @Override
        public int size(Object msg) {
            return msg instanceof ApiFrame frame ? ApiFrameCodec.encodedLength(frame) : fallback.size(msg);
        }
    };

    private FrameSizeEstimator() {
    }

    @Override
    public Handle newHandle() {
        return HANDLE;
    }
}
