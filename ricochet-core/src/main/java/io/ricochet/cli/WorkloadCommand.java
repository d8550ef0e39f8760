package io.ricochet.cli;

import io.ricochet.client.ClientOptions;
import io.ricochet.workload.ClusterSummary;
import io.ricochet.workload.ExactlyOnceCheck;
import io.ricochet.workload.NodeResult;
import io.ricochet.workload.ResultFiles;
import io.ricochet.workload.SummaryReport;
import io.ricochet.workload.WorkloadException;
import io.ricochet.workload.WorkloadJson;
import io.ricochet.workload.WorkloadPlan;
import io.ricochet.workload.WorkloadRunner;
import io.ricochet.workload.WorkloadSettings;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet workload}: the exactly-once workload of a cluster experiment, in three modes. Without a mode flag
 * it runs one node's share against its daemon and writes a result file; {@code --make-plan} deals nodes into
 * overlapping groups; {@code --summarize} checks every node's result against the others (logic in
 * {@code io.ricochet.workload}).
 */
@Command(name = "workload",
        sortOptions = false,
        description = {
            "Runs a checkable multicast workload through the local Ricochet daemon, or plans or checks one.",
            "",
            "Run (default): joins --groups, waits until the daemon is in all of them (and for --start-file), sends "
                + "--rate messages/s to groups drawn at random for --seconds, keeps receiving until deliveries stop "
                + "for --settle-seconds, and writes to --out what it sent (seqnos per group), what it received per "
                + "(origin, group), duplicates, corrupt payloads, LOST notices and the daemon's stats before and "
                + "after. Every payload encodes (origin, group, index, send time) and a pattern each receiver "
                + "verifies.",
            "",
            "--make-plan: deals --nodes nodes into --degree of --total-groups groups each (seeded, sizes balanced), "
                + "writes the plan to --out and prints one line per node: 'NODE G1,G2,...'.",
            "",
            "--summarize DIR|FILE...: the cluster-wide exactly-once check. Every packet sent must reach every other "
                + "member of its group exactly once, intact. Reads node-*.json (and plan.json / kernel.json) from "
                + "each directory, prints a table and writes the summary JSON to --out. Exit 1 on any violation.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 no violation, 1 a violation or a failed node, 2 bad input.",
            "The plan, the run folder and the summary: docs/operations.md, 2.3 ricochet workload.",
        })
public final class WorkloadCommand implements Callable<Integer> {
    private static final Set<String> RUN = Set.of("--api", "--node", "--groups", "--rate", "--seconds",
            "--ramp-seconds", "--payload", "--seed", "--tag", "--settle-seconds", "--start-file", "--join-timeout",
            "--out");
    private static final Set<String> PLAN = Set.of("--make-plan", "--nodes", "--total-groups", "--degree", "--seed",
            "--out");
    private static final Set<String> SUMMARIZE = Set.of("--summarize", "--plan", "--kernel", "--out");

    @Spec
    private CommandSpec spec;

    @Mixin
    private StatsCommand.Endpoint endpoint;

    @Option(names = "--node", paramLabel = "N", description = "Fail unless the daemon is node N.")
    private Integer node;

    @Option(names = "--groups", paramLabel = "G1,G2,...", split = ",", description = "Groups to join and send to.")
    private List<Integer> groups;

    @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "100",
            description = "Messages per second over all groups (default: ${DEFAULT-VALUE}).")
    private double rate;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "How long to send (default: ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--ramp-seconds", paramLabel = "S", defaultValue = "0",
            description = "Raise the rate from a tenth to --rate over the first S seconds (default: ${DEFAULT-VALUE}).")
    private double rampSeconds;

    @Option(names = "--payload", paramLabel = "BYTES", defaultValue = "256",
            description = "Bytes per message, at least 44 (default: ${DEFAULT-VALUE}).")
    private int payload;

    @Option(names = "--seed", paramLabel = "X", defaultValue = "1",
            description = "Seed of the group choices, or of the plan (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--tag", paramLabel = "X", defaultValue = "0",
            description = "This run's tag, the same on every node: a packet carrying another tag (left over from an "
                    + "earlier run) counts as corrupt (default: ${DEFAULT-VALUE}).")
    private long tag;

    @Option(names = "--settle-seconds", paramLabel = "T", defaultValue = "3",
            description = "After the last send, keep receiving until no delivery came for T seconds (at most 10 T): "
                    + "other nodes' last sends and late recoveries arrive meanwhile (default: ${DEFAULT-VALUE}).")
    private double settleSeconds;

    @Option(names = "--start-file", paramLabel = "FILE",
            description = "Start sending only once FILE exists (a barrier across nodes).")
    private Path startFile;

    @Option(names = "--join-timeout", paramLabel = "S", defaultValue = "60",
            description = "Give up if the joins or the start file take longer (default: ${DEFAULT-VALUE}).")
    private long joinTimeout;

    @Option(names = "--out", paramLabel = "FILE.json", description = "Where to write the result, plan or summary.")
    private Path out;

    @Option(names = "--make-plan", description = "Plan which node joins which groups.")
    private boolean makePlan;

    @Option(names = "--nodes", paramLabel = "N", description = "With --make-plan: nodes 1..N.")
    private Integer nodes;

    @Option(names = "--total-groups", paramLabel = "G", description = "With --make-plan: groups 1..G.")
    private Integer totalGroups;

    @Option(names = "--degree", paramLabel = "D", description = "With --make-plan: groups per node.")
    private Integer degree;

    @Option(names = "--summarize", paramLabel = "DIR|FILE", arity = "1..*",
            description = "Check these workload directories or node result files.")
    private List<Path> summarize;

    @Option(names = "--plan", paramLabel = "FILE",
            description = "With --summarize: the plan (default: plan.json of the directory, else the groups each "
                    + "node joined).")
    private Path plan;

    @Option(names = "--kernel", paramLabel = "FILE",
            description = "With --summarize: kernel counters per namespace (default: kernel.json of the directory).")
    private Path kernel;

    @Override
    public Integer call() {
        if (summarize != null) {
            checkFlags("--summarize", SUMMARIZE);
            return summarize();
        }
        if (makePlan) {
            checkFlags("--make-plan", PLAN);
            return makePlan();
        }
        checkFlags("a workload run", RUN);
        return run();
    }

    private void checkFlags(String mode, Set<String> allowed) {
        List<String> foreign = spec.commandLine().getParseResult().matchedOptions().stream()
                .map(OptionSpec::longestName).filter(name -> !allowed.contains(name)).distinct().toList();
        if (!foreign.isEmpty()) {
            throw bad(String.join(", ", foreign) + (foreign.size() == 1 ? " does" : " do") + " not apply to " + mode
                    + "; its flags are " + allowed.stream().sorted().collect(Collectors.joining(" ")));
        }
    }

    private int run() {
        if (groups == null || out == null) {
            throw bad("a workload run needs --groups and --out (or use --make-plan or --summarize)");
        }
        WorkloadSettings settings;
        try {
            settings = new WorkloadSettings(node, groups, rate, seconds, rampSeconds, payload, seed, tag,
                    settleSeconds, startFile, Duration.ofSeconds(joinTimeout));
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        return endpoint.run(ClientOptions.defaults().withClientName("ricochet-workload").echo(false), client -> {
            try {
                NodeResult result = new WorkloadRunner(client, settings, stdout()).run();
                WorkloadJson.write(out, result.toJson());
                stdout().printf("workload node %d: done, sent %d, wrote %s%n", result.node(), result.sentCount(), out);
                stdout().flush();
                return 0;
            } catch (WorkloadException | UncheckedIOException e) {
                return endpoint.fail(e.getMessage());
            }
        });
    }

    private int makePlan() {
        if (nodes == null || totalGroups == null || degree == null) {
            throw bad("--make-plan needs --nodes, --total-groups and --degree");
        }
        WorkloadPlan result;
        try {
            result = WorkloadPlan.generate(nodes, totalGroups, degree, seed);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (out != null && !write(out, () -> WorkloadJson.write(out, result.toJson()))) {
            return 1;
        }
        List<Integer> degenerate = result.degenerateGroups();
        if (!degenerate.isEmpty()) {
            stderr().println("ricochet workload: warning: group(s) " + degenerate + " have fewer than 2 members; "
                    + "raise --degree or lower --total-groups");
        }
        List<Integer> withoutLec = result.groupsWithoutLec();
        if (!withoutLec.isEmpty()) {
            stderr().println("ricochet workload: warning: " + withoutLec.size() + " of " + totalGroups + " groups "
                    + abbreviated(withoutLec) + " have 2 members: LEC cannot help there (a repair goes to the group's "
                    + "other receivers, and there are none), only NAKs recover their losses; for groups of 3 or more "
                    + "raise --degree or lower --total-groups");
        }
        stderr().flush();
        result.groupsOf().forEach((n, g) -> stdout().println(n + " "
                + g.stream().map(String::valueOf).collect(Collectors.joining(","))));
        stdout().flush();
        return 0;
    }

    /** {@code groups} as [1, 2, 3], the first ten and '...' when there are more. */
    private static String abbreviated(List<Integer> groups) {
        return groups.size() <= 10 ? groups.toString()
                : groups.subList(0, 10).toString().replace("]", ", ...]");
    }

    private int summarize() {
        ClusterSummary summary;
        try {
            ResultFiles files = new ResultFiles(summarize, plan, kernel);
            WorkloadPlan thePlan = files.plan();
            Map<Integer, ? extends Set<Integer>> members = thePlan == null ? null : thePlan.members();
            summary = ExactlyOnceCheck.check(members, files.results(), files.kernel());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return endpoint.fail(e.getMessage());
        }
        if (out != null && !write(out, () -> WorkloadJson.write(out, SummaryReport.toJson(summary)))) {
            return 1;
        }
        stdout().print(SummaryReport.table(summary));
        stdout().flush();
        return summary.ok() ? 0 : 1;
    }

    private boolean write(Path file, Runnable writer) {
        try {
            writer.run();
            return true;
        } catch (UncheckedIOException e) {
            endpoint.fail(e.getMessage());
            return false;
        }
    }

    private PrintWriter stdout() {
        return spec.commandLine().getOut();
    }

    private PrintWriter stderr() {
        return spec.commandLine().getErr();
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
