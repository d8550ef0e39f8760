package io.ricochet.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench experiment --figure 8|9|...|15|compare|all [--quick]}: reproduces the paper's evaluation figures in
 * the simulator, each point averaged over five seeds, and writes per figure a CSV and a PNG under
 * {@code docs/figures/} and its section of {@code docs/results.md}.
 */
@Command(name = "experiment",
        sortOptions = false,
        description = {
            "Reproduces the Ricochet paper's evaluation (section 5, Figures 8-15) and our comparison of LEC, SRM and "
                    + "sender-based FEC in the deterministic simulator. Per figure it writes DOCS/figures/"
                    + "figure-ID.csv and .png and rewrites the figure's section of DOCS/results.md (between its "
                    + "markers; the rest of the file is left alone).",
            "Every point runs once per seed (seeds 1..N, the paper averages 5 runs); the same seeds give the same "
                    + "numbers. Simulations run in parallel, one per thread. Figure 11 also times the engine with "
                    + "JMH, alone, after its simulations.",
            "Duration: the whole set is about 800 runs. With --quick (2 s each) it took 21 minutes on 2 cores; at "
                    + "the paper's 30 s per run expect about four hours. Each figure's section of results.md gives its "
                    + "own time, and the progress line the time left.",
            "",
        })
public final class ExperimentCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--figure", paramLabel = "ID", required = true, split = ",",
            description = "Which figures: 8, 9, 10, 11, 12, 13, 14, 15, compare, or all.")
    private List<String> figures;

    @Option(names = "--quick",
            description = "Short runs (2 s of traffic each instead of the paper's 30 s) and a short JMH "
                    + "timing: the whole set in about 20 minutes on 2 cores rather than hours.")
    private boolean quick;

    @Option(names = "--seconds", paramLabel = "S",
            description = "Measured traffic per run, overriding the default (30, or 2 with --quick).")
    private Double seconds;

    @Option(names = "--seeds", paramLabel = "N", defaultValue = "5",
            description = "Runs per point, seeds 1..N (default: ${DEFAULT-VALUE}, as the paper).")
    private int seeds;

    @Option(names = "--threads", paramLabel = "N",
            description = "Simulations run at once (default: the number of cores).")
    private Integer threads;

    @Option(names = "--docs", paramLabel = "DIR", defaultValue = "docs",
            description = "The docs folder to write to: DIR/figures/ and DIR/results.md (default: ${DEFAULT-VALUE},"
                    + " i.e. run from the repository root).")
    private Path docs;

    @Override
    public Integer call() {
        List<Figure> chosen = chosenFigures();
        Scale scale;
        try {
            scale = new Scale(seconds != null ? seconds : quick ? Scale.QUICK_SECONDS : Scale.FULL_SECONDS, seeds,
                    quick);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        int threadCount = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (threadCount < 1) {
            throw new ParameterException(spec.commandLine(), "--threads " + threadCount + ": must be at least 1");
        }
        if (!Files.isDirectory(docs)) {
            throw new ParameterException(spec.commandLine(), "--docs " + docs + ": no such folder; run from the "
                    + "repository root or give the docs folder");
        }
        // The parse result of this subcommand holds its own arguments only; the top-level one holds them all.
        String command = "scripts/bench " + String.join(" ",
                spec.root().commandLine().getParseResult().originalArgs());
        ReportWriter writer = new ReportWriter(docs);
        String machine = RunInfo.thisMachine();
        ProgressLine progress = new ProgressLine(System.err, System.console() != null);
        long start = System.nanoTime();
        try (TrialRunner runner = new TrialRunner(scale, threadCount)) {
            for (Figure figure : chosen) {
                long figureStart = System.nanoTime();
                System.err.printf(Locale.ROOT, "figure %s: %d settings x %d seeds, %s s of traffic each, %d threads%n",
                        figure.id(), figure.settings().size(), scale.seeds(), Numbers.plain(scale.seconds()),
                        threadCount);
                runner.runAll(figure.settings(), progress.label("figure " + figure.id()));
                FigureOutput output = figure.complete(runner);
                RunInfo info = new RunInfo(machine, command, scale, Instant.now(),
                        (System.nanoTime() - figureStart) / 1e9);
                writer.write(figure, output, info);
                System.err.printf(Locale.ROOT, "figure %s: %s, %s and %s written (%s)%n", figure.id(),
                        writer.csv(figure), writer.png(figure), writer.results(),
                        Numbers.duration(info.wallSeconds()));
                System.out.println("### " + figure.title());
                System.out.println(output.table());
            }
        } catch (ExperimentException e) {
            System.err.println("experiment: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            System.err.println("experiment: could not write the results: " + e);
            return 1;
        }
        System.err.println("experiment: done in " + Numbers.duration((System.nanoTime() - start) / 1e9));
        return 0;
    }

    private List<Figure> chosenFigures() {
        List<Figure> all = Figures.all(quick);
        Set<String> wanted = new LinkedHashSet<>();
        for (String f : figures) {
            String id = f.trim().toLowerCase(Locale.ROOT);
            if (id.equals("all")) {
                all.forEach(fig -> wanted.add(fig.id()));
            } else if (Figures.ids().contains(id)) {
                wanted.add(id);
            } else {
                throw new ParameterException(spec.commandLine(), "--figure " + f + ": not a figure; use one or more "
                        + "of " + String.join(", ", Figures.ids()) + " (comma-separated), or all");
            }
        }
        List<Figure> chosen = new ArrayList<>();
        for (Figure fig : all) {
            if (wanted.contains(fig.id())) {
                chosen.add(fig);
            }
        }
        return chosen;
    }
}
