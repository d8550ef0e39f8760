package io.ricochet.api;

import io.ricochet.api.server.ApiConfig;
import io.ricochet.api.server.ApiServer;
import io.ricochet.client.RicochetClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link ApiServer} on an ephemeral loopback port in front of a {@link FakeLocalNode}, plus the clients a test
 * opens; {@link #close()} closes them all.
 */
public final class ApiFixture implements AutoCloseable {
    public static final int NODE_ID = 7;
    public static final int MAX_PAYLOAD = 1024;

    private final FakeLocalNode node;
    private final ApiServer server;
    private final List<AutoCloseable> clients = new ArrayList<>();

    public ApiFixture() {
        this(ApiConfig.defaults());
    }

    /** A fixture with {@code config}, its port replaced by 0 (ephemeral). */
    public ApiFixture(ApiConfig config) {
        this(config, new FakeLocalNode(NODE_ID, MAX_PAYLOAD));
    }

    /** A fixture serving {@code node} (closed with the fixture) with {@code config}, its port ephemeral. */
    public ApiFixture(ApiConfig config, FakeLocalNode node) {
        this.node = node;
        server = new ApiServer(node, config.withPort(0));
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public FakeLocalNode node() {
        return node;
    }

    public ApiServer server() {
        return server;
    }

    public int port() {
        return server.boundPort();
    }

    /** {@code 127.0.0.1:port}, as the CLI's --api takes it. */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /** A connected client, closed with the fixture. */
    public RicochetClient client() {
        RicochetClient client = RicochetClient.connect("127.0.0.1", port());
        clients.add(client);
        return client;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        server.close();
        node.close();
    }
}
