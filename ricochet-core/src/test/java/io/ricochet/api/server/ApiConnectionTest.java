package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.api.FakeLocalNode;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The connection and listener handlers on their own: odd messages and failed accepts. */
class ApiConnectionTest {
    private final FakeLocalNode node = new FakeLocalNode(1, 100);
    private final ApiCounters counters = new ApiCounters();

    @AfterEach
    void tearDown() {
        node.close();
    }

    @Test
    void shouldIgnoreAndReleaseAMessageThatIsNotAFrame() {
        EmbeddedChannel channel = new EmbeddedChannel(new ApiConnection(node, counters, ApiConfig.defaults(),
                ApiConnection.Limits.of(node, ApiConfig.defaults()), new LargeFrameBudget(1 << 20, counters).open(),
                PeerCredentialsLookup.real(), new PrincipalQuotas(ApiAccess.defaults(), System::nanoTime)));
        ByteBuf bytes = Unpooled.buffer().writeInt(42);

        channel.writeInbound(bytes, "text", 42);

        channel.checkException();
        assertEquals(0, bytes.refCnt());
        assertTrue(channel.isActive());
        assertNull(channel.readOutbound());
        channel.writeInbound(new ApiRequest.Hello(1, ApiProtocol.VERSION, "after"));
        assertEquals(new ApiReply.HelloReply(1, ApiProtocol.VERSION, 1, 100), channel.readOutbound());
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldCountAFailedAcceptAndPauseAcceptingForAWhile() {
        EmbeddedChannel listener = new EmbeddedChannel(new AcceptErrors(counters));
        listener.freezeTime();

        listener.pipeline().fireExceptionCaught(new IOException("Too many open files"));
        listener.pipeline().fireExceptionCaught(new IOException("Too many open files"));

        listener.checkException();
        assertEquals(2, counters.get(ApiCounter.ACCEPT_ERRORS));
        assertFalse(listener.config().isAutoRead());
        listener.advanceTimeBy(AcceptErrors.RETRY_MS, TimeUnit.MILLISECONDS);
        listener.runScheduledPendingTasks();
        assertTrue(listener.config().isAutoRead());
        listener.finish();
    }

    @Test
    void shouldPassOnOtherListenerFailures() {
        EmbeddedChannel listener = new EmbeddedChannel(new AcceptErrors(counters));

        listener.pipeline().fireExceptionCaught(new IllegalStateException("not an accept"));

        assertThrows(IllegalStateException.class, listener::checkException);
        assertEquals(0, counters.get(ApiCounter.ACCEPT_ERRORS));
        assertTrue(listener.config().isAutoRead());
    }
}
