package io.ricochet.bench.perturb;

import io.ricochet.bench.experiment.Plots;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.internal.chartpart.Chart;

/** Writes an experiment's DOCS/figures/NAME.csv, NAME.png and NAME.md, and checks the options that name them. */
final class FigureFiles {
    private FigureFiles() {
    }

    /** Null if {@code name} and {@code docs} are usable, else the one-line reason. */
    static String problem(String name, Path docs) {
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            return "--name " + name + ": letters, digits, - and _ only";
        }
        if (!Files.isDirectory(docs)) {
            return "--docs " + docs + ": no such folder; run from the repository root or give the docs folder";
        }
        return null;
    }

    /** Writes the three files; returns the figures folder. */
    static Path write(Path docs, String name, String csv, List<Chart<?, ?>> charts, String table) throws IOException {
        Path figures = docs.resolve("figures");
        Files.createDirectories(figures);
        Files.writeString(figures.resolve(name + ".csv"), csv, StandardCharsets.UTF_8);
        Plots.writePng(charts, figures.resolve(name + ".png"));
        Files.writeString(figures.resolve(name + ".md"), table, StandardCharsets.UTF_8);
        return figures;
    }
}
