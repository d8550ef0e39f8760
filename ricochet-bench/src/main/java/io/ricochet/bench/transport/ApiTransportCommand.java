package io.ricochet.bench.transport;

import io.ricochet.bench.load.JsonFiles;
import io.ricochet.bench.transport.RoundTrips.Request;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench api-transport}: the local API over loopback TCP against the Unix domain socket, in one run on one
 * host. Starts a {@link LoopbackDaemon} in this process, then for each transport in turn (the order alternating
 * from round to round) times request round trips ({@link RoundTrips}) and measures delivery throughput
 * ({@link DeliveryRun}); prints a table and writes the figures as JSON.
 */
@Command(name = "api-transport",
        sortOptions = false,
        description = {
            "Measures the daemon's local API over loopback TCP and over its Unix domain socket, same daemon, same "
                + "run: the round trip of SEND and STATS requests made one at a time (mean, p50, p99), and the "
                + "delivery throughput of messages sent through the daemon to a subscriber on the same transport "
                + "(messages/s, and the process's CPU per message: daemon, clients and JVM, with the clients' "
                + "share). Starts a GMS partition and a daemon in this process, on loopback only.",
            "",
        })
public final class ApiTransportCommand implements Callable<Integer> {
    private static final int GROUP = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--calls", paramLabel = "N", defaultValue = "20000",
            description = "Timed round trips per request kind, transport and round (default: ${DEFAULT-VALUE}).")
    private int calls;

    @Option(names = "--warmup-calls", paramLabel = "N", defaultValue = "2000",
            description = "Untimed round trips before them (default: ${DEFAULT-VALUE}).")
    private int warmupCalls;

    @Option(names = "--messages", paramLabel = "N", defaultValue = "200000",
            description = "Messages per throughput run, one per transport and round (default: ${DEFAULT-VALUE}).")
    private int messages;

    @Option(names = "--warmup-messages", paramLabel = "N", defaultValue = "20000",
            description = "Messages sent and delivered before each run's clock starts (default: ${DEFAULT-VALUE}).")
    private int warmupMessages;

    @Option(names = "--senders", paramLabel = "N", defaultValue = "8",
            description = "Threads sending on the sender's connection, so SENDs in flight at most "
                    + "(default: ${DEFAULT-VALUE}).")
    private int senders;

    @Option(names = "--payload", paramLabel = "BYTES", defaultValue = "256",
            description = "Bytes per SEND (default: ${DEFAULT-VALUE}).")
    private int payload;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "2",
            description = "Rounds; each measures both transports, the first one alternating (default: "
                    + "${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--seed", paramLabel = "X", defaultValue = "1",
            description = "Seed of the daemon's random choices (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--out", paramLabel = "FILE.json", defaultValue = "runs/api-transport.json",
            description = "Where to write the JSON result (default: ${DEFAULT-VALUE}).")
    private Path out;

    /** Round trips of one request kind over one transport, in microseconds. */
    record Latency(long calls, double meanUs, double p50Us, double p99Us, double maxUs) {
        static Latency of(Histogram ns) {
            return new Latency(ns.getTotalCount(), us(ns.getMean()), us(ns.getValueAtPercentile(50)),
                    us(ns.getValueAtPercentile(99)), us(ns.getMaxValue()));
        }

        private static double us(double ns) {
            return Math.round(ns / 100.0) / 10.0;
        }
    }

    /** Delivery throughput over one transport: the mean of the rounds, and each round. */
    record Delivery(double messagesPerSecond, double cpuUsPerMessage, double clientCpuUsPerMessage,
            long overflowed, List<DeliveryRun.Result> rounds) {
        static Delivery of(List<DeliveryRun.Result> runs) {
            return new Delivery(mean(runs, DeliveryRun.Result::messagesPerSecond),
                    mean(runs, DeliveryRun.Result::cpuUsPerMessage),
                    mean(runs, DeliveryRun.Result::clientCpuUsPerMessage),
                    runs.stream().mapToLong(DeliveryRun.Result::overflowed).sum(), runs);
        }

        private static double mean(List<DeliveryRun.Result> runs,
                ToDoubleFunction<DeliveryRun.Result> figure) {
            return runs.stream().mapToDouble(figure).average().orElse(Double.NaN);
        }
    }

    /** Everything measured over one transport, and the address its clients connected to. */
    record TransportFigures(String address, Map<String, Latency> roundTrips, Delivery delivery) {
    }

    /** The JSON document. */
    record Report(String bench, Map<String, Object> settings, Map<String, Object> host,
            Map<String, TransportFigures> transports) {
    }

    @Override
    public Integer call() throws Exception {
        validate();
        byte[] bytes = new byte[payload];
        Map<ApiTransport, Map<Request, Histogram>> latencies = new EnumMap<>(ApiTransport.class);
        Map<ApiTransport, List<DeliveryRun.Result>> deliveries = new EnumMap<>(ApiTransport.class);
        Map<ApiTransport, String> addresses = new EnumMap<>(ApiTransport.class);
        DeliveryRun throughput = new DeliveryRun(messages, warmupMessages, senders, GROUP, bytes);
        PrintWriter err = spec.commandLine().getErr();
        try (LoopbackDaemon daemon = LoopbackDaemon.start(seed);
                RicochetClient anchor = anchor(daemon)) {
            for (ApiTransport transport : ApiTransport.values()) {
                addresses.put(transport, transport.address(daemon).toString());
            }
            for (int round = 0; round < rounds; round++) {
                List<ApiTransport> order = round % 2 == 0 ? List.of(ApiTransport.TCP, ApiTransport.UNIX)
                        : List.of(ApiTransport.UNIX, ApiTransport.TCP);
                for (ApiTransport transport : order) {
                    err.printf("api-transport: round %d of %d, %s%n", round + 1, rounds, transport.label());
                    err.flush();
                    Map<Request, Histogram> byRequest = latencies.computeIfAbsent(transport,
                            t -> new EnumMap<>(Request.class));
                    try (RicochetClient client = transport.connect(daemon, ClientOptions.defaults()
                            .withClientName("bench-latency").echo(false))) {
                        client.join(GROUP);
                        for (Request request : Request.values()) {
                            Histogram h = RoundTrips.measure(client, request, GROUP, bytes, warmupCalls, calls);
                            byRequest.computeIfAbsent(request, r -> new Histogram(h.getHighestTrackableValue(), 3))
                                    .add(h);
                        }
                    }
                    deliveries.computeIfAbsent(transport, t -> new ArrayList<>()).add(throughput.run(daemon,
                            transport));
                }
            }
        }
        Map<String, TransportFigures> figures = new LinkedHashMap<>();
        for (ApiTransport transport : ApiTransport.values()) {
            Map<String, Latency> trips = new LinkedHashMap<>();
            latencies.get(transport).forEach((request, h) -> trips.put(request.label(), Latency.of(h)));
            figures.put(transport.label(), new TransportFigures(addresses.get(transport), trips,
                    Delivery.of(deliveries.get(transport))));
        }
        Report report = new Report("api-transport", settings(), host(), figures);
        spec.commandLine().getOut().print(table(figures));
        spec.commandLine().getOut().flush();
        JsonFiles.write(out, report);
        err.printf("api-transport: wrote %s%n", out);
        return 0;
    }

    /**
     * A client that keeps the daemon in the group for the whole run and takes no delivery (NO_LOCAL): without it,
     * each measurement's first join could come while the previous one's leave is still on its way to the GMS, and
     * the daemon, still a member for a moment, would accept the join and then leave the group anyway.
     */
    private static RicochetClient anchor(LoopbackDaemon daemon) {
        RicochetClient anchor = ApiTransport.TCP.connect(daemon, ClientOptions.defaults().withClientName("bench-anchor")
                .localDelivery(false));
        try {
            anchor.join(GROUP);
        } catch (RuntimeException e) {
            anchor.close();
            throw e;
        }
        return anchor;
    }

    private void validate() {
        atLeast("--calls", calls, 1);
        atLeast("--warmup-calls", warmupCalls, 0);
        atLeast("--messages", messages, 1);
        atLeast("--warmup-messages", warmupMessages, 0);
        atLeast("--senders", senders, 1);
        atLeast("--payload", payload, 1);
        atLeast("--rounds", rounds, 1);
        if (senders > 256) {
            throw new ParameterException(spec.commandLine(), "--senders " + senders + ": at most 256");
        }
    }

    private void atLeast(String option, int value, int min) {
        if (value < min) {
            throw new ParameterException(spec.commandLine(), option + " " + value + ": must be at least " + min);
        }
    }

    private Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("calls", calls);
        s.put("warmupCalls", warmupCalls);
        s.put("messages", messages);
        s.put("warmupMessages", warmupMessages);
        s.put("senders", senders);
        s.put("payloadBytes", payload);
        s.put("rounds", rounds);
        s.put("seed", seed);
        return s;
    }

    private static Map<String, Object> host() {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("cores", Runtime.getRuntime().availableProcessors());
        h.put("java", System.getProperty("java.version"));
        h.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        return h;
    }

    /** The figures as a plain-text table. */
    static String table(Map<String, TransportFigures> figures) {
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "%-16s%10s%10s%10s%10s%10s%n", "round trip (us)", "calls", "mean",
                "p50", "p99", "max"));
        List<String> requests = figures.values().iterator().next().roundTrips().keySet().stream().toList();
        for (String request : requests) {
            figures.forEach((transport, f) -> {
                Latency l = f.roundTrips().get(request);
                t.append(String.format(Locale.ROOT, "%-16s%10d%10.1f%10.1f%10.1f%10.1f%n",
                        transport + " " + request, l.calls(), l.meanUs(), l.p50Us(), l.p99Us(), l.maxUs()));
            });
        }
        t.append(String.format(Locale.ROOT, "%n%-16s%12s%14s%16s%14s%n", "delivery", "messages/s", "CPU us/msg",
                "clients us/msg", "overflowed"));
        figures.forEach((transport, f) -> {
            Delivery d = f.delivery();
            t.append(String.format(Locale.ROOT, "%-16s%12.0f%14.2f%16.2f%14d%n", transport, d.messagesPerSecond(),
                    d.cpuUsPerMessage(), d.clientCpuUsPerMessage(), d.overflowed()));
        });
        return t.toString();
    }
}
