package io.ricochet.metrics;

import picocli.CommandLine.Option;

/**
 * The {@code --metrics-port} and {@code --metrics-address} options of the GMS and the failure detector (a picocli
 * mixin), with the meaning of the daemon's {@code metrics-port} and {@code metrics-address} keys.
 */
public final class MetricsOptions {
    @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "0",
            description = "TCP port of a Prometheus endpoint (GET /metrics) with this server's counters; 0: none "
                    + "(default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--metrics-address", paramLabel = "ADDRESS", defaultValue = MetricsBind.DEFAULT_ADDRESS,
            description = "IP address the metrics endpoint listens on: it has no authentication, so keep it on "
                    + "loopback or a management network (default: ${DEFAULT-VALUE}).")
    private String address;

    /**
     * Where the endpoint listens.
     *
     * @throws IllegalArgumentException naming the option that is wrong
     */
    public MetricsBind bind() {
        return MetricsBind.parse(address, port, "--metrics-address", "--metrics-port");
    }
}
