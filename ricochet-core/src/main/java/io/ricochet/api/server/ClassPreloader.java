package io.ricochet.api.server;

import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;
import io.ricochet.api.ApiException;
import io.ricochet.api.DeliveryListener;
import io.ricochet.api.Ordering;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiFrameType;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.api.protocol.MalformedFrameException;
import java.util.List;

/**
 * Loads, up front, the classes a connection needs. Loading a class opens its file, so when the process runs out of
 * file descriptors (EMFILE) a class loaded lazily fails with {@code NoClassDefFoundError}, and the JVM remembers the
 * failure: every later connection would fail the same way even after descriptors are free again. Loaded at start,
 * the classes cannot fail that way.
 */
final class ClassPreloader {
    private static final List<Class<?>> ROOTS = List.of(
            ApiConnection.class, RequestHandler.class, Subscription.class, FrameSplitter.class,
            FrameCodecHandler.class, FrameSizeEstimator.class, AcceptErrors.class, ApiCounter.class,
            ApiCounters.class, ApiConfig.class, ApiAccess.class, GroupAccess.class, Principal.class,
            PrincipalQuotas.class, PeerCredentialsLookup.class, io.netty.channel.unix.PeerCredentials.class,
            ApiFrame.class, ApiFrameCodec.class, ApiFrameType.class, ApiProtocol.class, ApiPush.class,
            ApiReply.class, ApiRequest.class, MalformedFrameException.class,
            ApiException.class, DeliveryListener.class, Ordering.class, LargeFrameBudget.class,
            ChannelInputShutdownEvent.class, ChannelInputShutdownReadComplete.class, TooLongFrameException.class,
            CorruptedFrameException.class, DecoderException.class, ReferenceCountUtil.class);
    private static final String[] BY_NAME = {"io.ricochet.api.protocol.Bodies"};

    private ClassPreloader() {
    }

    /** Loads and initialises the classes above and every class nested in them. */
    static void preload() {
        for (Class<?> root : ROOTS) {
            load(root);
        }
        for (String name : BY_NAME) {
            try {
                load(Class.forName(name, true, ClassPreloader.class.getClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("class " + name + " is missing", e);
            }
        }
    }

    private static void load(Class<?> type) {
        try {
            Class.forName(type.getName(), true, type.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("class " + type.getName() + " is missing", e);
        }
        for (Class<?> nested : type.getDeclaredClasses()) {
            load(nested);
        }
    }
}
