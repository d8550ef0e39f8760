package io.ricochet.metrics;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test support: one scrape of a Prometheus endpoint on 127.0.0.1 over HTTP, read into its samples
 * ({@code name{labels}} to value), as Prometheus would take them. Shared with the GMS, detector and bench tests.
 */
public record Scrape(String text, Map<String, Double> samples) {

    /** GETs {@code /metrics} on {@code 127.0.0.1:port}. */
    public static Scrape of(int port) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("scrape of port " + port + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        Map<String, Double> samples = new LinkedHashMap<>();
        response.body().lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(line -> {
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        });
        return new Scrape(response.body(), samples);
    }

    /** A TCP port free on loopback now (the endpoints take 0 as off, so tests pick a port). */
    public static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /** The value of the sample written exactly as {@code sample} ({@code name} or {@code name{a="b"}}). */
    public double value(String sample) {
        Double v = samples.get(sample);
        if (v == null) {
            throw new AssertionError("no sample " + sample + " in:\n" + text);
        }
        return v;
    }
}
