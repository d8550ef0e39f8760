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
    /**
     * One trial to run: its members and how they are packaged, the link they talk over and the loss on it (on a real
     * link, nftables' at the receivers; on loopback, the plans carry it to the systems' injectors).
     */
    record Spec(Packaging packaging, List<MemberPlan> plans, Link link, double loss) {
        Spec(Packaging packaging, List<MemberPlan> plans) {
            this(packaging, plans, Link.LOOPBACK, plans.get(0).loss());
        }

        /** The members that receive from another member: where the link's loss applies. */
        List<Integer> receivers() {
            return plans.stream().filter(p -> plans.stream().anyMatch(o -> o.id() != p.id() && o.sends()))
                    .map(MemberPlan::id).toList();
        }
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
        String credentials = specs.get(0).plans().get(0).credentials();
        if (credentials != null) {
            int members = specs.stream().mapToInt(s -> s.plans().size()).max().orElse(0);
            Credentials.make(Path.of(credentials), members);
        }
        NetLab lab = null;
        try {
            for (int i = 0; i < specs.size(); i++) {
                Spec spec = specs.get(i);
                MemberPlan first = spec.plans().get(0);
                if (lab != null && lab.mtu() != spec.link().mtu()) {
                    lab.close();
                    lab = null;
                }
                if (lab == null && spec.link().real()) {
                    int members = specs.stream().filter(s -> s.link().equals(spec.link()))
                            .mapToInt(s -> s.plans().size()).max().orElse(0);
                    lab = NetLab.up(members, spec.link().mtu());
                }
                System.err.printf(Locale.ROOT, "[%d/%d] %s %s on %s, loss %s: %d members, %d groups each, "
                                + "%d-byte messages%n", i + 1, specs.size(), SystemKind.variant(first),
                        spec.packaging().cliName(), spec.link(), percent(spec.loss()), spec.plans().size(),
                        first.groups().size(), first.payloadBytes());
                TrialSummary summary = spec.link().real() ? onLink(spec, lab, logs)
                        : TrialSummary.of(spec.packaging(), spec.plans(), Trial.run(spec.packaging(), spec.plans(),
                                logs));
                summaries.add(summary);
                System.err.println("    " + String.join(" | ", row.apply(summary)));
            }
        } finally {
            if (lab != null) {
                lab.close();
            }
        }
        Report report = new Report(name, RunInfo.thisMachine(), command, Instant.now().toString(), parameters,
                summaries);
        JsonFiles.write(out.resolve(name + ".json"), report);
        StringBuilder markdown = new StringBuilder("Host: " + report.machine() + "\n\nCommand: `" + command + "`\n");
        // One table per (link, loss), in the order the trials ran.
        Map<String, List<TrialSummary>> sections = new java.util.LinkedHashMap<>();
        for (TrialSummary s : summaries) {
            TrialSummary.Conditions c = s.conditions();
            String title = "Link " + c.link() + ", loss " + percent(c.loss())
                    + (c.loss() == 0 ? "" : " (" + c.lossBy() + ")");
            sections.computeIfAbsent(title, t -> new ArrayList<>()).add(s);
        }
        sections.forEach((title, rows) -> {
            MarkdownTable table = new MarkdownTable(columns);
            rows.forEach(s -> table.row(row.apply(s)));
            markdown.append(sections.size() > 1 ? "\n### " + title + "\n\n" : "\n" + title + "\n\n").append(table);
        });
        Files.writeString(out.resolve(name + ".md"), markdown.toString(), StandardCharsets.UTF_8);
        System.out.print(markdown);
        return report;
    }

    /**
     * Runs {@code spec} on {@code lab}'s link: loss set at each receiver's ingress (counters at zero), the kernel's
     * counters read before and after, and both attached to the summary.
     */
    private static TrialSummary onLink(Spec spec, NetLab lab, Path logs) throws Exception {
        List<Integer> receivers = spec.receivers();
        Map<Integer, Map<String, Long>> before = new java.util.TreeMap<>();
        for (MemberPlan plan : spec.plans()) {
            // A member no one sends to gets a table too, with no loss: its counters still tell what reached it.
            lab.setLoss(plan.id(), receivers.contains(plan.id()) ? spec.loss() : 0);
            before.put(plan.id(), lab.snmp(plan.id()));
        }
        List<MemberResult> results = Trial.run(spec.packaging(), spec.plans(), logs, lab);
        Map<Integer, Map<String, Long>> perMember = new java.util.TreeMap<>();
        Map<String, Long> network = new java.util.TreeMap<>();
        for (MemberPlan plan : spec.plans()) {
            Map<String, Long> counts = new java.util.TreeMap<>(lab.nftCounters(plan.id()));
            lab.snmp(plan.id()).forEach((k, v) -> counts.put(k, v - before.get(plan.id()).getOrDefault(k, 0L)));
            perMember.put(plan.id(), counts);
            if (receivers.contains(plan.id())) {
                counts.forEach((k, v) -> network.merge(k, v, Long::sum));
            }
        }
        return TrialSummary.of(spec.packaging(), spec.plans(), results).with(new TrialSummary.Conditions(
                spec.link().toString(), spec.loss(), spec.loss() == 0 ? "none" : "nftables on the link", network,
                perMember));
    }

    /** A loss rate as a percentage: "1 %", "0.1 %", "0 %". */
    static String percent(double rate) {
        return new java.math.BigDecimal(Double.toString(rate * 100)).stripTrailingZeros().toPlainString() + " %";
    }

    /** {@code value} with {@code decimals} decimals. */
    static String num(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
