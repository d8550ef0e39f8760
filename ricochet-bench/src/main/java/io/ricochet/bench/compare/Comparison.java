package io.ricochet.bench.compare;

import io.ricochet.bench.experiment.MarkdownTable;
import io.ricochet.bench.experiment.RunInfo;
import io.ricochet.bench.load.JsonFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs the trials of one experiment one after another and writes {@code <out>/<name>.json} (every trial's summary
 * and its members' results, the machine, the command) and {@code <out>/<name>.md} (the table); members' logs go to
 * {@code <out>/logs/<name>/}.
 */
final class Comparison {
    /** One trial to run: its members and how they are packaged. */
    record Spec(Packaging packaging, List<MemberPlan> plans) {
    }

    /** The experiment's JSON file. */
    record Report(String experiment, String machine, String command, String date, Map<String, Object> parameters,
                  List<TrialSummary> trials) {
    }

    private Comparison() {
    }

    /**
     * Runs {@code specs} and writes the report; {@code columns} names the table's columns and {@code row} makes a
     * trial's cells.
     */
    static Report run(String name, String command, Map<String, Object> parameters, List<Spec> specs, Path out,
                      List<String> columns, Function<TrialSummary, List<String>> row) throws Exception {
        List<TrialSummary> summaries = new ArrayList<>();
        Path logs = out.resolve("logs").resolve(name);
        for (int i = 0; i < specs.size(); i++) {
            Spec spec = specs.get(i);
            MemberPlan first = spec.plans().get(0);
            System.err.printf(Locale.ROOT, "[%d/%d] %s %s: %d members, %d groups each, %d-byte messages%n", i + 1,
                    specs.size(), first.system().cliName(), spec.packaging().cliName(), spec.plans().size(),
                    first.groups().size(), first.payloadBytes());
            List<MemberResult> results = Trial.run(spec.packaging(), spec.plans(), logs);
            TrialSummary summary = TrialSummary.of(spec.packaging(), spec.plans(), results);
            summaries.add(summary);
            System.err.println("    " + String.join(" | ", row.apply(summary)));
        }
        Report report = new Report(name, RunInfo.thisMachine(), command, Instant.now().toString(), parameters,
                summaries);
        JsonFiles.write(out.resolve(name + ".json"), report);
        MarkdownTable table = new MarkdownTable(columns);
        summaries.forEach(s -> table.row(row.apply(s)));
        String markdown = "Host: " + report.machine() + "\n\nCommand: `" + command + "`\n\n" + table;
        Files.writeString(out.resolve(name + ".md"), markdown, StandardCharsets.UTF_8);
        System.out.print(markdown);
        return report;
    }

    /** {@code value} with {@code decimals} decimals. */
    static String num(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
