package io.ricochet.bench.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a figure's outputs under the docs folder: {@code figures/figure-<id>.csv} and {@code .png}, and its
 * section of {@code results.md}. The section sits between two marker comments and is replaced whole on every
 * run; everything outside the markers (the hand-written commentary) is left as it is. A figure never run
 * before gets its section appended under {@link #GENERATED_HEADING}.
 */
public final class ReportWriter {
    static final String GENERATED_HEADING = "## The paper's evaluation, regenerated (`bench experiment`)";

    private final Path docs;

    public ReportWriter(Path docs) {
        this.docs = docs;
    }

    public Path csv(Figure figure) {
        return docs.resolve("figures").resolve("figure-" + figure.id() + ".csv");
    }

    public Path png(Figure figure) {
        return docs.resolve("figures").resolve("figure-" + figure.id() + ".png");
    }

    public Path results() {
        return docs.resolve("results.md");
    }

    /** Writes the CSV, the PNG and the results.md section of {@code figure}. */
    public void write(Figure figure, FigureOutput output, RunInfo info) throws IOException {
        Files.createDirectories(csv(figure).getParent());
        Files.writeString(csv(figure), csvText(output), StandardCharsets.UTF_8);
        Plots.writePng(output.panels(), png(figure));
        String section = section(figure, output, info);
        String text = Files.exists(results()) ? Files.readString(results(), StandardCharsets.UTF_8) : "# Results\n";
        Files.writeString(results(), replaceSection(text, figure.id(), section), StandardCharsets.UTF_8);
    }

    static String csvText(FigureOutput output) {
        StringBuilder out = new StringBuilder();
        out.append(csvLine(output.csvHeader()));
        output.csvRows().forEach(r -> out.append(csvLine(r)));
        return out.toString();
    }

    private static String csvLine(List<String> fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            String f = fields.get(i);
            if (i > 0) {
                line.append(',');
            }
            line.append(f.contains(",") || f.contains("\"") ? '"' + f.replace("\"", "\"\"") + '"' : f);
        }
        return line.append('\n').toString();
    }

    String section(Figure figure, FigureOutput output, RunInfo info) {
        String name = "figure-" + figure.id();
        return "### " + figure.title() + "\n\n"
                + "- Setup (the paper's): " + figure.setup() + ".\n"
                + "- The paper says: " + figure.paperSays() + ".\n"
                + info.markdown()
                + "- Data: [" + name + ".csv](figures/" + name + ".csv); values are mean ± standard deviation over "
                + "the seeds.\n\n"
                + "![" + figure.title() + "](figures/" + name + ".png)\n\n"
                + output.table();
    }

    static String begin(String id) {
        return "<!-- BEGIN GENERATED figure-" + id + " (bench experiment rewrites this; comment outside it) -->";
    }

    static String end(String id) {
        return "<!-- END GENERATED figure-" + id + " -->";
    }

    /** {@code text} with figure {@code id}'s section replaced by {@code section} (or appended). */
    static String replaceSection(String text, String id, String section) {
        String block = begin(id) + "\n" + section + end(id) + "\n";
        int from = text.indexOf(begin(id));
        if (from >= 0) {
            int to = text.indexOf(end(id), from);
            if (to < 0) {
                throw new IllegalStateException("results.md has the start marker of figure " + id
                        + " but not its end marker '" + end(id) + "': restore it, then run again");
            }
            int after = text.indexOf('\n', to);
            return text.substring(0, from) + block + (after < 0 ? "" : text.substring(after + 1));
        }
        StringBuilder out = new StringBuilder(text);
        if (!text.endsWith("\n")) {
            out.append('\n');
        }
        if (!text.contains(GENERATED_HEADING)) {
            out.append('\n').append(GENERATED_HEADING).append("\n\n")
                    .append("Written by `scripts/bench experiment` (ricochet-bench). Each figure's section between "
                            + "its markers is regenerated; commentary belongs outside them.\n");
        }
        return out.append('\n').append(block).toString();
    }
}
