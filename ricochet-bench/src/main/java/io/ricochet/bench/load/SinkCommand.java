package io.ricochet.bench.load;

import io.ricochet.client.ApiAddress;
import io.ricochet.support.ParsingConverter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench sink}: the command-line face of {@link Sink}; SIGTERM ends the run and still writes the report. */
@Command(name = "sink",
        sortOptions = false,
        description = {
            "An application on the receiving node: connects to the local Ricochet daemon's API, joins --groups, "
                + "counts deliveries per second and checks that no packet id comes twice. Runs for --seconds "
                + "(0: until SIGTERM or Ctrl-C), then prints (and writes, with --out) a JSON report.",
            "",
        })
public final class SinkCommand implements Callable<Integer> {
    private static final long REPORT_WAIT_SECONDS = 10;

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

    @Override
    public Integer call() throws Exception {
        Sink sink = new Sink(api, groups, seconds, progress);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            sink.stop();
            try {
                reported.await(REPORT_WAIT_SECONDS, TimeUnit.SECONDS);
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
            System.err.printf("sink: %d delivered in %.1f s (%.0f/s, peak %d/s), %d lost, %d duplicates%n",
                    report.delivered(), report.seconds(), report.meanRate(), report.peakRate(), report.lost(),
                    report.duplicates());
            return report.duplicates() == 0 ? 0 : 1;
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
