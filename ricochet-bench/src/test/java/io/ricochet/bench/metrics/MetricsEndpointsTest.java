package io.ricochet.bench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.ricochet.api.NodeStats;
import io.ricochet.bench.transport.QuietListener;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.verdict.FailureReporter;
import io.ricochet.daemon.Daemon;
import io.ricochet.daemon.DaemonConfig;
import io.ricochet.daemon.DaemonSettings;
import io.ricochet.engine.EngineCounter;
import io.ricochet.fd.FdConfig;
import io.ricochet.fd.FdCounter;
import io.ricochet.fd.FdServer;
import io.ricochet.fd.Target;
import io.ricochet.gms.GmsConfig;
import io.ricochet.gms.GmsCounter;
import io.ricochet.gms.GmsServer;
import io.ricochet.gms.MulticastPool;
import io.ricochet.metrics.MetricsBind;
import io.ricochet.metrics.Scrape;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Prometheus endpoints of a GMS partition, a daemon and a failure detector, all in this process on loopback:
 * off unless a port is given; on, a scrape over HTTP shows the values their stats show; and every metric the sample
 * Grafana dashboard and the alert rules use exists in those scrapes, so the files stay in step with the code.
 */
@Timeout(60)
class MetricsEndpointsTest {
    private static final int GROUP = 5;
    private static final int MESSAGES = 20;
    private static final Pattern METRIC = Pattern.compile("\\bricochet_[a-z0-9_]+");
    private static final FailureReporter QUIET = new FailureReporter() {
        @Override
        public void failed(int nodeId) {
        }

        @Override
        public void recovered(int nodeId) {
        }

        @Override
        public void detectorFailed(String detectorId) {
        }

        @Override
        public void detectorRecovered(String detectorId) {
        }
    };

    @Test
    void shouldOpenNoEndpointUnlessAPortIsGiven() throws Exception {
        EventLoopGroup group = new NioEventLoopGroup(1);
        try (GmsServer gms = gms(MetricsBind.OFF); Daemon daemon = daemon(gms, Map.of());
             FdServer fd = fd(daemon, MetricsBind.OFF, group)) {
            assertEquals(0, gms.metricsPort());
            assertEquals(0, daemon.metricsPort());
            assertEquals(0, fd.metricsPort());
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    @Test
    void shouldServeWhatTheStatsSayAndEveryMetricTheDashboardAndAlertsUse() throws Exception {
        EventLoopGroup group = new NioEventLoopGroup(1);
        try (GmsServer gms = gms(loopback(Scrape.freePort()));
             Daemon daemon = daemon(gms, Map.of("metrics-port", Integer.toString(Scrape.freePort())));
             FdServer fd = fd(daemon, loopback(Scrape.freePort()), group)) {
            QuietListener listener = new QuietListener();
            daemon.join(GROUP, listener).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < MESSAGES; i++) {
                daemon.send(GROUP, new byte[] {(byte) i}, listener, true).get(10, TimeUnit.SECONDS);
            }
            // The detector's first answer from the daemon: until then its target is neither up nor failed for long.
            while (fd.counters().get(FdCounter.ACKS_ACCEPTED) == 0) {
                Thread.sleep(10);
            }

            // The last datagram may still be leaving: the stats, read between two scrapes, lie between them.
            Scrape before = Scrape.of(daemon.metricsPort());
            NodeStats stats = daemon.stats().get(5, TimeUnit.SECONDS);
            Scrape daemonScrape = Scrape.of(daemon.metricsPort());
            long sent = stats.counter(EngineCounter.DATA_SENT);
            assertTrue(sent > 0, "the sends went out as datagrams");
            assertTrue(before.value("ricochet_daemon_data_sent_total") <= sent, before.text());
            assertTrue(sent <= daemonScrape.value("ricochet_daemon_data_sent_total"), daemonScrape.text());
            assertEquals(stats.groups().size(), daemonScrape.value("ricochet_daemon_groups"));
            assertEquals(1, daemonScrape.value("ricochet_daemon_gms_link_up{partition=\"0\"}"));
            assertEquals((double) stats.buffers().get("rxBufferPackets"),
                    daemonScrape.value("ricochet_daemon_buffer{buffer=\"rxBufferPackets\"}"));
            for (String how : List.of("lec", "nak", "late")) {
                assertEquals(0, daemonScrape.value("ricochet_daemon_recovery_latency_seconds_bucket{how=\"" + how
                        + "\",le=\"+Inf\"}"), "no loss, no recovery: the buckets are there, empty");
            }

            Scrape gmsScrape = Scrape.of(gms.metricsPort());
            assertEquals(gms.counter(GmsCounter.JOINS), gmsScrape.value("ricochet_gms_joins_total"));
            assertTrue(gmsScrape.value("ricochet_gms_joins_total") >= 1);
            assertEquals(1, gmsScrape.value("ricochet_gms_partition_leader{partition=\"0\"}"));
            assertEquals(1, gmsScrape.value("ricochet_gms_groups{partition=\"0\"}"));

            Scrape fdScrape = Scrape.of(fd.metricsPort());
            assertTrue(fdScrape.value("ricochet_fd_heartbeats_sent_total") >= 1);
            assertEquals(1, fdScrape.value("ricochet_fd_targets{state=\"up\"}"));
            assertEquals(0, fdScrape.value("ricochet_fd_targets{state=\"failed\"}"));

            Set<String> served = new TreeSet<>();
            for (Scrape s : List.of(daemonScrape, gmsScrape, fdScrape)) {
                s.samples().keySet().forEach(sample -> served.add(sample.replaceAll("\\{.*", "")));
            }
            Path scripts = Path.of(System.getProperty("user.dir")).getParent().resolve("scripts");
            for (Path file : List.of(scripts.resolve("grafana/ricochet-dashboard.json"),
                    scripts.resolve("prometheus/ricochet-alerts.yml"))) {
                Set<String> used = used(Files.readString(file));
                assertTrue(used.size() >= 5, file + " uses metrics: " + used);
                Set<String> missing = new TreeSet<>(used);
                missing.removeAll(served);
                assertEquals(Set.of(), missing, file + " uses metrics no endpoint serves; served: " + served);
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    private static Set<String> used(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(text);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    private static MetricsBind loopback(int port) {
        return MetricsBind.parse("127.0.0.1", port, "metrics-address", "metrics-port");
    }

    private static GmsServer gms(MetricsBind metrics) throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        GmsConfig config = new GmsConfig(new Partitioning(0, 1), new InetSocketAddress(loopback, 0),
                new MulticastPool((Inet4Address) InetAddress.getByName("239.255.0.0"), freeUdpPort()),
                GmsConfig.DEFAULT_STATS_INTERVAL_SECONDS);
        GmsServer gms = new GmsServer(metrics.enabled() ? config.withMetrics(metrics) : config);
        gms.start();
        return gms;
    }

    private static Daemon daemon(GmsServer gms, Map<String, String> extra) throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("node-id", "1");
        flags.put("insecure", "on");
        flags.put("interface", "lo");
        flags.put("address", "127.0.0.1");
        flags.put("unicast-port", Integer.toString(freeUdpPort()));
        flags.put("heartbeat-port", Integer.toString(freeUdpPort()));
        flags.put("api-port", "0");
        flags.put("gms", "127.0.0.1:" + gms.localAddress().getPort());
        flags.put("multicast-ttl", "1");
        flags.put("stats-interval", "0");
        flags.putAll(extra);
        DaemonConfig config = DaemonSettings.resolve(null, null, flags);
        return Daemon.start(config);
    }

    private static FdServer fd(Daemon daemon, MetricsBind metrics, EventLoopGroup group) throws InterruptedException {
        FdConfig config = new FdConfig("fd-test", new InetSocketAddress("127.0.0.1", 0),
                List.of(Target.daemon(1, daemon.config().heartbeatAddress())), TimeUnit.MILLISECONDS.toNanos(50), 5);
        return new FdServer(metrics.enabled() ? config.withMetrics(metrics) : config, QUIET, group).start();
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return probe.getLocalPort();
        }
    }
}
