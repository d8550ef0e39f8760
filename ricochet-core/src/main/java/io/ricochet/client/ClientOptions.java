package io.ricochet.client;

import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link RicochetClient}, validated on construction.
 *
 * @param clientName     the name sent in HELLO, shown in the daemon's logs (at most 255 UTF-8 bytes)
 * @param connectTimeout how long to wait for the TCP connection
 * @param requestTimeout how long a request waits for its reply before failing with {@code UNAVAILABLE}
 * @param queueCapacity  deliveries buffered for {@link RicochetClient#poll}; beyond that, new ones are dropped
 * @param echo           whether this client receives the packets it sent itself (false: OPTIONS NO_ECHO)
 * @param localDelivery  whether this client receives packets sent through its daemon by any client, itself
 *                       included (false: OPTIONS NO_LOCAL)
 */
public record ClientOptions(String clientName, Duration connectTimeout, Duration requestTimeout, int queueCapacity,
        boolean echo, boolean localDelivery) {

    public ClientOptions {
        Objects.requireNonNull(clientName, "clientName");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (connectTimeout.isNegative() || connectTimeout.isZero()
                || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (clientName.getBytes(StandardCharsets.UTF_8).length > ApiProtocol.MAX_CLIENT_NAME_LENGTH) {
            throw new IllegalArgumentException("client name longer than " + ApiProtocol.MAX_CLIENT_NAME_LENGTH
                    + " UTF-8 bytes");
        }
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queue capacity " + queueCapacity + ": must be at least 1");
        }
    }

    /** Name "java-client", 5 s to connect, 10 s per request, 10 000 queued deliveries, every local send delivered. */
    public static ClientOptions defaults() {
        return new ClientOptions("java-client", Duration.ofSeconds(5), Duration.ofSeconds(10), 10_000, true, true);
    }

    public ClientOptions withClientName(String name) {
        return new ClientOptions(name, connectTimeout, requestTimeout, queueCapacity, echo, localDelivery);
    }

    public ClientOptions withRequestTimeout(Duration timeout) {
        return new ClientOptions(clientName, connectTimeout, timeout, queueCapacity, echo, localDelivery);
    }

    public ClientOptions withQueueCapacity(int capacity) {
        return new ClientOptions(clientName, connectTimeout, requestTimeout, capacity, echo, localDelivery);
    }

    /** These options with {@link #echo()} set: false, and this client does not receive its own packets. */
    public ClientOptions echo(boolean receiveOwn) {
        return new ClientOptions(clientName, connectTimeout, requestTimeout, queueCapacity, receiveOwn, localDelivery);
    }

    /**
     * These options with {@link #localDelivery()} set: false, and this client receives no packet sent through its
     * daemon, by itself or by another client of the same daemon.
     */
    public ClientOptions localDelivery(boolean receiveLocal) {
        return new ClientOptions(clientName, connectTimeout, requestTimeout, queueCapacity, echo, receiveLocal);
    }

    /** The OPTIONS flags these options ask for; 0 means no OPTIONS request is needed. */
    int optionFlags() {
        return (echo ? 0 : ApiRequest.Options.NO_ECHO) | (localDelivery ? 0 : ApiRequest.Options.NO_LOCAL);
    }
}
