package io.ricochet.bench.transport;

import io.ricochet.client.ApiAddress;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;

/** The two ways an application reaches the daemon's local API. */
enum ApiTransport {
    /** Loopback TCP, {@code 127.0.0.1:PORT}. */
    TCP("tcp"),
    /** The Unix domain socket, {@code unix:/path}. */
    UNIX("unix");

    private final String label;

    ApiTransport(String label) {
        this.label = label;
    }

    /** The name in the table and the JSON. */
    String label() {
        return label;
    }

    /** Where {@code daemon}'s API listens this way. */
    ApiAddress address(LoopbackDaemon daemon) {
        return this == TCP ? daemon.tcp() : daemon.unix();
    }

    /** Connects a client to {@code daemon} this way. */
    RicochetClient connect(LoopbackDaemon daemon, ClientOptions options) {
        return address(daemon).connect(options);
    }
}
