package io.ricochet.bench.perturb;

import io.ricochet.cli.SimulationOptions;
import io.ricochet.sim.Perturbation;
import io.ricochet.sim.PerturbationReport;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimObserver;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import java.util.List;
import picocli.CommandLine;

/**
 * One simulator run described by {@code ricochet simulate}'s own flags, so every setting is checked by the same
 * code and with the same messages as there, and a protocol added to {@code --protocol} (e.g. qsm) runs here by name.
 */
final class SimulationRun {
    private final SimConfig config;
    private final Perturbation perturbation;
    private PerturbationReport lastReport;

    /**
     * @param flags simulate's flags, e.g. {@code --protocol pbcast --nodes 16}
     * @throws IllegalArgumentException with simulate's one-line message if a flag is wrong
     */
    SimulationRun(List<String> flags) {
        SimulationOptions options = new SimulationOptions();
        try {
            new CommandLine(options).parseArgs(flags.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        this.config = options.toSimConfig();
        this.perturbation = options.perturbation();
    }

    SimConfig config() {
        return config;
    }

    /** Runs it with {@code observer} watching. */
    SimResult run(SimObserver observer) {
        Simulator simulator = new Simulator(config, perturbation).observe(observer);
        SimResult result = simulator.run(null);
        lastReport = simulator.perturbationReport();
        return result;
    }

    /** What the sleeps of the last run did; null before a run or without --perturb. */
    PerturbationReport lastReport() {
        return lastReport;
    }
}
