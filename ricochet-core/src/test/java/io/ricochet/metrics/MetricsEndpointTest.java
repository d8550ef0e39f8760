package io.ricochet.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.MultiCollector;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shared endpoint: off means no socket, on serves what the collector reads, a taken port is one clear line. */
class MetricsEndpointTest {
    private static final MultiCollector SAMPLE = () -> {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("DATA_SENT", 7L);
        counters.put("QUEUE_PEAK", 3L);
        return new Readings()
                .counters("ricochet_test", counters, name -> "help of " + name, Set.of("QUEUE_PEAK"))
                .gauge("ricochet_test_partition_leader", "leader", Map.of(Readings.label("partition", "0"), 1))
                .histogram("ricochet_test_latency_seconds", "latency", "how", Map.of("lec",
                        new Readings.Buckets(new double[] {0.001, 0.01, Double.POSITIVE_INFINITY},
                                new long[] {2, 1, 1}, 3.5)))
                .build();
    };

    @Test
    void shouldOpenNothingWhenOff() throws IOException {
        assertFalse(MetricsBind.OFF.enabled());
        assertEquals("127.0.0.1", MetricsBind.OFF.address().getHostAddress());
        assertNull(MetricsEndpoint.start(MetricsBind.OFF, SAMPLE, "test", "metrics-port"));
    }

    @Test
    void shouldServeCountersGaugesAndHistogramBucketsOverHttp() throws Exception {
        MetricsBind bind = MetricsBind.parse("127.0.0.1", Scrape.freePort(), "metrics-address", "metrics-port");
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(bind, SAMPLE, "test", "metrics-port")) {
            Scrape scrape = Scrape.of(endpoint.port());

            assertEquals(7, scrape.value("ricochet_test_data_sent_total"));
            assertTrue(scrape.text().contains("# TYPE ricochet_test_data_sent_total counter"), scrape.text());
            assertEquals(3, scrape.value("ricochet_test_queue_peak"), "a gauge: no _total");
            assertTrue(scrape.text().contains("# TYPE ricochet_test_queue_peak gauge"), scrape.text());
            assertEquals(1, scrape.value("ricochet_test_partition_leader{partition=\"0\"}"));
            assertEquals(2, scrape.value("ricochet_test_latency_seconds_bucket{how=\"lec\",le=\"0.001\"}"));
            assertEquals(3, scrape.value("ricochet_test_latency_seconds_bucket{how=\"lec\",le=\"0.01\"}"));
            assertEquals(4, scrape.value("ricochet_test_latency_seconds_bucket{how=\"lec\",le=\"+Inf\"}"));
            assertEquals(4, scrape.value("ricochet_test_latency_seconds_count{how=\"lec\"}"));
            assertEquals(3.5, scrape.value("ricochet_test_latency_seconds_sum{how=\"lec\"}"));
        }
    }

    @Test
    void shouldSayOnOneLineWhichSettingToChangeWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            MetricsBind bind = new MetricsBind(InetAddress.getLoopbackAddress(), taken.getLocalPort());
            IOException e = assertThrows(IOException.class,
                    () -> MetricsEndpoint.start(bind, SAMPLE, "test", "metrics-port"));
            assertTrue(e.getMessage().startsWith("cannot serve metrics on 127.0.0.1:" + taken.getLocalPort() + ": "),
                    e.getMessage());
            assertTrue(e.getMessage().endsWith("(choose another metrics-port, or 0 for no metrics endpoint)"),
                    e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void shouldNameTheSettingThatIsWrong() {
        assertEquals("--metrics-port = 70000: must be in 1..65535, or 0 for no metrics endpoint",
                assertThrows(IllegalArgumentException.class,
                        () -> MetricsBind.parse("127.0.0.1", 70000, "--metrics-address", "--metrics-port"))
                        .getMessage());
        assertEquals("metrics-address = localhost: not an IP address literal (for example 127.0.0.1, or this host's "
                + "address on a management network)", assertThrows(IllegalArgumentException.class,
                        () -> MetricsBind.parse("localhost", 9400, "metrics-address", "metrics-port")).getMessage());
        assertEquals("[::1]:9400", MetricsBind.parse("::1", 9400, "a", "p").describe());
    }
}
