package io.ricochet.bench.load;

import io.ricochet.client.ApiAddress;
import io.ricochet.support.ParsingConverter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench sink}: the command-line face of {@link Sink}; SIGTERM ends the run and still writes the report. */
@Command(name = "sink",
        sortOptions = false,
        description = {
            "An application on the receiving node: connects to the local Ricochet daemon's API, joins --groups, "
                + "counts deliveries and loss notices per second and checks that no packet id comes twice. Runs for "
                + "--seconds (0: until SIGTERM or Ctrl-C), then prints (and writes, with --out) a JSON report. "
                + "With --expect, it then checks the delivery promise against the load generators' reports: every "
                + "packet sent delivered once or reported lost once, never both, never neither, waiting up to "
                + "--grace for the last ones. Every --sample-ms it notes its totals (and, if asked, the daemon's "
                + "counters and CPU time and the kernel's UDP counters) for a timeline.",
            "",
        })
public final class SinkCommand implements Callable<Integer> {
    /** How long SIGTERM waits for the report beyond the grace: the check and writing. */
    private static final long REPORT_WAIT_SECONDS = 10;

    @Spec
    private CommandSpec spec;

    @Option(names = "--api", paramLabel = "HOST:PORT|unix:PATH", defaultValue = ApiAddress.DEFAULT,
            converter = ApiConverter.class,
            description = "The daemon's local API: TCP, or its Unix domain socket (default: ${DEFAULT-VALUE}).")
    private ApiAddress api;

    @Option(names = "--groups", paramLabel = "LIST", required = true, converter = GroupList.Converter.class,
            description = "Groups to join, e.g. 100..115 or 1,2,7.")
    private GroupList groups;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "0",
            description = "How long to run; 0 = until SIGTERM (default: ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--progress", paramLabel = "FILE",
            description = "Rewrite running totals to this JSON file once a second.")
    private Path progress;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON report to this file.")
    private Path out;

    @Option(names = "--sample-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Sampling interval of the report's timeline (default: ${DEFAULT-VALUE}).")
    private int sampleMillis;

    @Option(names = "--daemon-stats",
            description = "Also read the daemon's counters at every sample (over a second API connection).")
    private boolean daemonStats;

    @Option(names = "--daemon-pid", paramLabel = "PID", defaultValue = "0",
            description = "Also read this process's CPU time (/proc/PID/stat) at every sample.")
    private long daemonPid;

    @Option(names = "--expect", paramLabel = "FILE", split = ",",
            description = "bench load reports (JSON) to check the delivery promise against when stopping.")
    private List<Path> expect = List.of();

    @Option(names = "--grace", paramLabel = "S", defaultValue = "5",
            description = "With --expect: how long to wait once stopped for the last packets to be delivered or "
                    + "reported lost; the NAK give-up time is about 3.3 s (default: ${DEFAULT-VALUE}).")
    private double grace;

    @Override
    public Integer call() throws Exception {
        SinkConfig config;
        try {
            config = new SinkConfig(api, groups, seconds, progress, sampleMillis, daemonStats, daemonPid, expect,
                    grace);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        Sink sink = new Sink(config);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            sink.stop();
            try {
                reported.await(REPORT_WAIT_SECONDS + (long) Math.ceil(config.graceSeconds()), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sink-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            SinkReport report = sink.run();
            System.out.println(JsonFiles.text(report));
            if (out != null) {
                JsonFiles.write(out, report);
            }
            System.err.printf("sink: %d delivered in %.1f s (%.0f/s, peak %d/s), %d lost, %d duplicates, %d both "
                            + "delivered and lost%n", report.delivered(), report.seconds(), report.meanRate(),
                    report.peakRate(), report.lost(), report.duplicates(), report.both());
            PromiseTally promise = report.promise();
            if (promise != null) {
                System.err.printf("sink: promise over %d streams, %d packets sent: %d delivered, %d lost, %d both, "
                                + "%d neither (%d tails), %d duplicates, %d unexpected (waited %.1f s): %s%n",
                        promise.streams(), promise.expected(), promise.delivered(), promise.lost(), promise.both(),
                        promise.neither(), promise.neitherTail(),
                        promise.duplicates(), promise.unexpected(), report.graceSeconds(),
                        promise.kept() ? "kept" : "BROKEN");
            }
            boolean ok = report.duplicates() == 0 && report.both() == 0 && report.promiseError() == null
                    && (promise == null || promise.kept());
            return ok ? 0 : 1;
        } finally {
            reported.countDown();
        }
    }

    /** Picocli converter for {@code --api}. */
    public static final class ApiConverter extends ParsingConverter<ApiAddress> {
        public ApiConverter() {
            super(ApiAddress::parse);
        }
    }
}
