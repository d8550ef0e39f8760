package io.ricochet.bench.experiment;

import io.ricochet.bench.jmh.EnginePerPacketBenchmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Times the engine per data packet for Figure 11 with the JMH benchmark {@link EnginePerPacketBenchmark} (the
 * same one {@code scripts/experiments/jmh} runs), once per groups-per-node value.
 *
 * @param forks              JVM forks per value (0 runs in this JVM: only for tests)
 * @param warmupIterations   JMH warm-up iterations
 * @param measureIterations  JMH measured iterations
 * @param iterationMillis    length of each iteration
 */
public record JmhPacketTimer(int forks, int warmupIterations, int measureIterations, int iterationMillis) {

    /** The benchmark's own settings (3 x 2 s warm-up, 5 x 2 s measured, one fork). */
    public static JmhPacketTimer full() {
        return new JmhPacketTimer(1, 3, 5, 2000);
    }

    /** For {@code --quick}: 2 x 1 s warm-up, 5 x 1 s measured. */
    public static JmhPacketTimer quick() {
        return new JmhPacketTimer(1, 2, 5, 1000);
    }

    /** A measurement: mean nanoseconds per packet and the half-width of JMH's 99.9 % confidence interval. */
    public record Timing(double meanNs, double errorNs) {
    }

    /** Degree to timing, for each of {@code degrees}. */
    public SortedMap<Integer, Timing> time(List<Integer> degrees) throws ExperimentException {
        Path log;
        try {
            log = Files.createTempFile("ricochet-figure11-jmh", ".log");
        } catch (IOException e) {
            throw new ExperimentException("cannot create a file for JMH's output: " + e, e);
        }
        // JMH's own report and the benchmark's per-trial lines go to a file, not into the harness's tables.
        Options options = new OptionsBuilder()
                .output(log.toString())
                .include(EnginePerPacketBenchmark.class.getName().replace(".", "\\.") + "\\.")
                .param("degree", degrees.stream().map(String::valueOf).toArray(String[]::new))
                .forks(forks)
                .warmupIterations(warmupIterations)
                .warmupTime(TimeValue.milliseconds(iterationMillis))
                .measurementIterations(measureIterations)
                .measurementTime(TimeValue.milliseconds(iterationMillis))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build();
        Collection<RunResult> results;
        try {
            results = new Runner(options).run();
        } catch (RunnerException e) {
            throw new ExperimentException("the JMH run of Figure 11 failed: " + e.getMessage() + " (JMH's output: "
                    + log + ")", e);
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // Only a temporary file left behind.
        }
        SortedMap<Integer, Timing> timings = new TreeMap<>();
        for (RunResult r : results) {
            int degree = Integer.parseInt(r.getParams().getParam("degree"));
            double error = r.getPrimaryResult().getScoreError();
            timings.put(degree, new Timing(r.getPrimaryResult().getScore(), Double.isNaN(error) ? 0 : error));
        }
        if (!timings.keySet().containsAll(degrees)) {
            throw new ExperimentException("JMH measured degrees " + timings.keySet() + ", wanted " + degrees);
        }
        return timings;
    }
}
