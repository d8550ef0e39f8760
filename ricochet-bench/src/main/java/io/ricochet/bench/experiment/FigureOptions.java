package io.ricochet.bench.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.internal.chartpart.Chart;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The figure files of an experiment command, mixed into it ({@code @Mixin}): the options {@code --name} and
 * {@code --docs}, their check, and the writing of DOCS/figures/NAME.csv, NAME.png and NAME.md. NAME defaults to
 * the command's name.
 */
public final class FigureOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = "--name", paramLabel = "NAME",
            description = "Base name of the files written under DIR/figures/ (default: the command's name).")
    private String name;

    @Option(names = "--docs", paramLabel = "DIR", defaultValue = "docs",
            description = "Where DIR/figures/ is (default: ${DEFAULT-VALUE}, i.e. run from the repository root).")
    private Path docs;

    /** The base name: {@code --name}, else the command's name. */
    public String name() {
        return name == null ? command.name() : name;
    }

    /** Null if the options are usable, else the one-line reason. */
    public String problem() {
        String base = name();
        if (!base.matches("[A-Za-z0-9_-]{1,64}")) {
            return "--name " + base + ": letters, digits, - and _ only";
        }
        if (!Files.isDirectory(docs)) {
            return "--docs " + docs + ": no such folder; run from the repository root or give the docs folder";
        }
        return null;
    }

    /**
     * Writes the three files, says so on {@code err}, and prints the table on {@code out}; returns the exit code:
     * 0, or 1 if the files could not be written (said on {@code err}).
     */
    public int write(String csv, List<Chart<?, ?>> charts, String table, PrintStream out, PrintStream err) {
        String base = name();
        Path figures = docs.resolve("figures");
        try {
            Files.createDirectories(figures);
            Files.writeString(figures.resolve(base + ".csv"), csv, StandardCharsets.UTF_8);
            Plots.writePng(charts, figures.resolve(base + ".png"));
            Files.writeString(figures.resolve(base + ".md"), table, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println(command.name() + ": could not write the results: " + e);
            return 1;
        }
        err.println(command.name() + ": " + figures.resolve(base + ".csv") + ", " + base + ".png and " + base
                + ".md written");
        out.print(table);
        return 0;
    }
}
