package io.ricochet.cli;

import io.ricochet.region.RegionPlanner;
import io.ricochet.sim.Perturbation;
import io.ricochet.sim.PerturbationReport;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.SimResult;
import io.ricochet.sim.Simulator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet simulate}: runs the discrete-event simulator on one configuration, prints a table of the results
 * and optionally writes them as JSON ({@link ResultJson}). Exits 1 if the run failed verification (a corrupt or
 * duplicate delivery) or the JSON could not be written, 2 on bad flags.
 */
@Command(name = "simulate",
        sortOptions = false,
        description = {
            "Simulates a cluster running Ricochet: n nodes, each in d groups of about s members, multicasting data "
                + "at random under a loss model, on virtual time with a fixed one-hop latency. Reports how many "
                + "losses LEC and NAKs recovered, how fast, and at what cost. Defaults are the paper's evaluation "
                + "(section 5); the same flags and seed always give the same results.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the run failed verification, 2 bad input.",
            "Runs of it, their flags and what they showed: docs/results.md.",
        })
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private SimulationOptions options;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the results to FILE as JSON (identical for identical flags and seed).")
    private Path json;

    @Option(names = "--quiet", description = "Print no progress line while the simulation runs.")
    private boolean quiet;

    @Override
    public Integer call() {
        SimConfig config = config();
        Perturbation perturbation = perturbation();
        RegionPlanner regions = regionPlanner();
        checkJsonTarget();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();

        ProgressLine progress = quiet || System.console() == null ? null : new ProgressLine(err, System::nanoTime);
        long startNs = System.nanoTime();
        Simulator simulator = new Simulator(config, perturbation);
        if (regions != null) {
            simulator.regions(regions);
        }
        SimResult result = simulator.run(progress);
        double wallSeconds = (System.nanoTime() - startNs) / 1e9;
        if (progress != null) {
            progress.finish();
        }

        out.print(ResultTable.render(result, wallSeconds));
        PerturbationReport slept = simulator.perturbationReport();
        if (slept != null) {
            out.printf(java.util.Locale.ROOT, "Perturbation: node %d asleep %.0f %% of every %s ms; %d frames waited "
                    + "in its socket buffer, %d dropped as it overflowed, %d sends skipped%n",
                    slept.perturbation().node(), 100 * slept.perturbation().fraction(),
                    Decimals.plain(slept.perturbation().periodNs() / 1e6), slept.held(), slept.overflowed(),
                    slept.sendsSkipped());
        }
        out.flush();
        boolean written = writeJson(result, err);
        if (!result.verified()) {
            fail(err, "verification " + ResultTable.verification(result) + "; the protocol delivered wrong data");
        }
        return written && result.verified() ? 0 : 1;
    }

    private SimConfig config() {
        try {
            return options.toSimConfig();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    private Perturbation perturbation() {
        try {
            return options.perturbation();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    private RegionPlanner regionPlanner() {
        try {
            return options.regionPlanner();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** Refuses a --json target that cannot be written before spending minutes on the run. */
    private void checkJsonTarget() {
        if (json == null) {
            return;
        }
        Path parent = json.toAbsolutePath().getParent();
        if (Files.isDirectory(json)) {
            throw new ParameterException(spec.commandLine(), "--json " + json + ": is a directory");
        }
        if (parent != null && !Files.isDirectory(parent)) {
            throw new ParameterException(spec.commandLine(),
                    "--json " + json + ": directory " + parent + " does not exist");
        }
    }

    private boolean writeJson(SimResult result, PrintWriter err) {
        if (json == null) {
            return true;
        }
        try {
            ResultJson.write(result, json);
            return true;
        } catch (IOException e) {
            fail(err, "--json " + json + ": cannot write: " + e.getMessage());
            return false;
        }
    }

    private void fail(PrintWriter err, String message) {
        err.println(spec.qualifiedName() + ": " + message);
        err.flush();
    }
}
