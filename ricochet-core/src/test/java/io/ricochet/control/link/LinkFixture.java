package io.ricochet.control.link;

import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test of the control links against fake replicas holds: one event loop, and everything it opened, closed
 * after each test, clients first (in reverse order of opening) and the replicas last. Registered with
 * {@code @RegisterExtension} on an instance field, so each test gets its own.
 */
public final class LinkFixture implements AfterEachCallback {
    /** The event loop the clients run on, shut down after each test. */
    public final EventLoopGroup group;
    private final List<AutoCloseable> clients = new ArrayList<>();
    private final List<AutoCloseable> replicas = new ArrayList<>();

    /** A fixture whose event loop thread is named after {@code name}. */
    public LinkFixture(String name) {
        this.group = TcpChannels.newGroup(1, name);
    }

    /** A fake replica, closed after the clients. */
    public FakeReplica replica(FakeReplica replica) {
        replicas.add(replica);
        return replica;
    }

    /** A client (link, reporter, watch client), closed before the replicas, the latest first. */
    public <T extends AutoCloseable> T client(T client) {
        clients.add(0, client);
        return client;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (AutoCloseable c : clients) {
            c.close();
        }
        for (AutoCloseable r : replicas) {
            r.close();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
