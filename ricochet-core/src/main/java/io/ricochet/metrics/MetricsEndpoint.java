package io.ricochet.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's Prometheus endpoint: {@code GET /metrics} over the JDK's HTTP server, on the address a
 * {@link MetricsBind} gives, answered by one collector that reads the server's state when scraped. Its registry is
 * its own (not the client's global default), so two servers in one JVM, as in tests, never share samples.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    /** Scrapes come every few seconds: one thread, and a short queue before the acceptor serves them itself. */
    private static final int QUEUED_SCRAPES = 8;

    private final HTTPServer server;
    private final MetricsBind bind;

    private MetricsEndpoint(HTTPServer server, MetricsBind bind) {
        this.server = server;
        this.bind = bind;
    }

    /**
     * Starts the endpoint, or returns null if {@code bind} is off.
     *
     * @param name       who serves it, for the log and the thread name (e.g. {@code node 3}, {@code gms-r1})
     * @param portSetting the setting that chose the port, named in the error (e.g. {@code metrics-port})
     * @throws IOException one line saying where it could not listen, why, and which setting to change
     */
    public static MetricsEndpoint start(MetricsBind bind, MultiCollector collector, String name, String portSetting)
            throws IOException {
        return start(bind, List.of(collector), name, portSetting);
    }

    /** As above, answered by several collectors (a server's own, and one of its certificate's expiry, say). */
    public static MetricsEndpoint start(MetricsBind bind, List<MultiCollector> collectors, String name,
                                        String portSetting) throws IOException {
        if (!bind.enabled()) {
            return null;
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        collectors.forEach(registry::register);
        ExecutorService executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUED_SCRAPES), r -> {
                    Thread t = new Thread(r, "metrics-" + name.replace(' ', '-'));
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            HTTPServer server = HTTPServer.builder().inetAddress(bind.address()).port(bind.port())
                    .registry(registry).executorService(executor).buildAndStart();
            LOG.info("{}: Prometheus metrics on http://{}/metrics (counters only, no authentication: keep it on "
                    + "loopback or a management network)", name, bind.describe());
            return new MetricsEndpoint(server, bind);
        } catch (IOException e) {
            executor.shutdownNow();
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new IOException("cannot serve metrics on " + bind.describe() + ": " + why + " (choose another "
                    + portSetting + ", or 0 for no metrics endpoint)", e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    /** Where it listens. */
    public MetricsBind bind() {
        return bind;
    }

    /** Stops listening; a scrape in progress is cut off. */
    @Override
    public void close() {
        server.close();
    }
}
