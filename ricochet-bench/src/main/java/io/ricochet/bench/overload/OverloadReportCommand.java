package io.ricochet.bench.overload;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import io.ricochet.bench.load.JsonFiles;
import io.ricochet.bench.load.LoadReport;
import io.ricochet.bench.load.SinkReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench overload-report}: the timeline and verdict of one run of scripts/experiments/daemon-overload. */
@Command(name = "overload-report",
        sortOptions = false,
        description = {
            "Builds the overload experiment's timeline from the sink's report (its samples: deliveries, loss "
                + "notices, the daemon's counters and CPU time, the kernel's UDP counters) and the load generators' "
                + "reports (their schedules and packets sent over time), judges it (no collapse: delivered reaches "
                + "offered within --clean-within seconds of the load falling and stays there; the delivery promise "
                + "kept) and writes timeline.json, table.md and, with --png, timeline.png to --out. Exit code 0 if "
                + "the run passed, 1 if not.",
            "",
        })
public final class OverloadReportCommand implements Callable<Integer> {
    /** Reports of another build may carry more fields than these records. */
    private static final ObjectReader JSON = JsonFiles.MAPPER.reader()
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Spec
    private CommandSpec spec;

    @Option(names = "--sink", paramLabel = "FILE", required = true, description = "The sink's JSON report.")
    private Path sinkFile;

    @Option(names = "--load", paramLabel = "FILE", required = true, split = ",",
            description = "The load generators' JSON reports.")
    private List<Path> loadFiles;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where the outputs go.")
    private Path out;

    @Option(names = "--tolerance", paramLabel = "FRACTION", defaultValue = "0.05",
            description = "Shortfall of delivered against offered a clean interval may have (default: "
                    + "${DEFAULT-VALUE}).")
    private double tolerance;

    @Option(names = "--clean-within", paramLabel = "S", defaultValue = "2",
            description = "Seconds after the fall by which delivery must be clean again (default: ${DEFAULT-VALUE}).")
    private double cleanWithin;

    @Option(names = "--clock-ticks", paramLabel = "HZ", defaultValue = "100",
            description = "The kernel's clock ticks per second, getconf CLK_TCK (default: ${DEFAULT-VALUE}).")
    private int clockTicks;

    @Option(names = "--info", paramLabel = "KEY=VALUE",
            description = "A line about the run for the outputs (host, command line ...); repeatable.")
    private Map<String, String> info = new LinkedHashMap<>();

    @Option(names = "--png", description = "Also draw timeline.png.")
    private boolean png;

    @Override
    public Integer call() throws Exception {
        if (clockTicks < 1) {
            throw new ParameterException(spec.commandLine(), "--clock-ticks " + clockTicks + ": must be 1 or more");
        }
        SinkReport sink = read(sinkFile, SinkReport.class);
        List<LoadReport> loads = new ArrayList<>();
        for (Path file : loadFiles) {
            loads.add(read(file, LoadReport.class));
        }
        Timeline timeline;
        Verdict verdict;
        try {
            timeline = Timeline.of(sink.samples(), loads.stream().map(Generator::of).toList(), clockTicks);
            verdict = Verdict.of(timeline, sink.promise(), tolerance, cleanWithin);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        OverloadReportWriter writer = new OverloadReportWriter(info, timeline, verdict, sink, loads);
        writer.write(out, png);
        System.out.print(writer.summary());
        return verdict.passed() ? 0 : 1;
    }

    private <T> T read(Path file, Class<T> type) {
        try {
            return JSON.readValue(file.toFile(), type);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), file + ": not a readable " + type.getSimpleName()
                    + " (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
        }
    }
}
