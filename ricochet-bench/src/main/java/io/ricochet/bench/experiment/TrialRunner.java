package io.ricochet.bench.experiment;

import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs simulations, each setting once per seed, on a fixed number of threads (one simulation is single-threaded
 * and deterministic, so runs in parallel give the same numbers as runs in sequence). Results are kept for the
 * life of the runner: a setting two figures share (Figures 10 and 11) runs once.
 */
public final class TrialRunner implements AutoCloseable {
    private record RunKey(Setting setting, double seconds, long seed) {
    }

    private final Scale scale;
    private final ExecutorService pool;
    private final Map<RunKey, SimResult> done = new ConcurrentHashMap<>();

    public TrialRunner(Scale scale, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("--threads " + threads + ": must be at least 1");
        }
        this.scale = scale;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "experiment-sim");
            t.setDaemon(true);
            return t;
        });
    }

    public Scale scale() {
        return scale;
    }

    /** Runs every seed of every setting not run yet, reporting each finished run to {@code progress}. */
    public void runAll(List<Setting> settings, ProgressLine progress) throws ExperimentException {
        Set<RunKey> todo = new LinkedHashSet<>();
        for (Setting setting : settings) {
            for (int i = 0; i < scale.seeds(); i++) {
                RunKey key = new RunKey(setting, scale.seconds(), scale.seed(i));
                if (!done.containsKey(key)) {
                    todo.add(key);
                }
            }
        }
        progress.start(todo.size());
        ExecutorCompletionService<SimResult> completion = new ExecutorCompletionService<>(pool);
        List<Future<SimResult>> futures = new ArrayList<>();
        for (RunKey key : todo) {
            futures.add(completion.submit(() -> run(key)));
        }
        try {
            for (int i = 0; i < futures.size(); i++) {
                completion.take().get();
                progress.step();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExperimentException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof ExperimentException ex ? ex
                    : new ExperimentException("a simulation failed: " + cause, cause);
        } finally {
            futures.forEach(f -> f.cancel(true));
            progress.finish();
        }
    }

    private SimResult run(RunKey key) throws ExperimentException {
        SimResult result = new Simulator(key.setting().config(key.seconds(), key.seed())).run(null);
        if (!result.verified()) {
            // A corrupt or duplicate delivery is a protocol bug, not a data point.
            throw new ExperimentException("simulation " + key.setting().flags() + " --seconds " + key.seconds()
                    + " --seed " + key.seed() + " delivered " + result.corruptDeliveries() + " corrupt and "
                    + result.duplicateDeliveries() + " duplicate payloads");
        }
        done.put(key, result);
        return result;
    }

    /** The runs of {@code setting}, one per seed, in seed order; {@link #runAll} must have run it. */
    public List<SimResult> results(Setting setting) {
        List<SimResult> runs = new ArrayList<>();
        for (int i = 0; i < scale.seeds(); i++) {
            SimResult r = done.get(new RunKey(setting, scale.seconds(), scale.seed(i)));
            if (r == null) {
                throw new IllegalStateException("not run: " + setting.flags() + " seed " + scale.seed(i));
            }
            runs.add(r);
        }
        return runs;
    }

    /** The mean and spread of {@code metric} over the runs of {@code setting}. */
    public Stat stat(Setting setting, Metric metric) {
        return Stat.of(results(setting).stream().map(metric::of).toList());
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
