package io.ricochet.bench.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench vs-jgroups throughput}: one sender to N receivers in one group, no loss; the sender sends as fast as
 * its system takes messages. Per trial: deliveries per second per receiver in the window and CPU per delivery.
 */
@Command(name = "throughput", sortOptions = false,
        description = {
            "One sender -> --receivers receivers, one group, no loss, for each --sizes and --packaging and each "
                + "system; the sender sends as fast as its system accepts (Ricochet: LocalNode.send waiting for the "
                + "daemon, at most 1024 in flight; JGroups: JChannel.send). Writes throughput.json and "
                + "throughput.md under --out: deliveries/s per receiver in the window, CPU (all member processes, "
                + "whole process) per delivery.",
            "",
        })
public final class ThroughputCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private TrialOptions options;

    @Option(names = "--systems", paramLabel = "S", split = ",", defaultValue = "jgroups,ricochet",
            converter = TrialOptions.SystemConverter.class,
            description = "jgroups, jgroups-tuned, ricochet (default: ${DEFAULT-VALUE})")
    private List<SystemKind> systems;

    @Option(names = "--sizes", paramLabel = "BYTES", split = ",", defaultValue = "1024,64",
            description = "message sizes in bytes (default: ${DEFAULT-VALUE})")
    private List<Integer> sizes;

    @Option(names = "--receivers", paramLabel = "N", defaultValue = "3",
            description = "receiving members (default: ${DEFAULT-VALUE})")
    private int receivers;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "the measured window (default: ${DEFAULT-VALUE})")
    private double seconds;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
            description = "runs of every trial, the systems' order reversed every other round, so a comparison "
                    + "is not one draw of a noisy host (default: ${DEFAULT-VALUE}; the tables list trials in run "
                    + "order)")
    private int rounds;

    @Override
    public Integer call() throws Exception {
        List<Comparison.Spec> specs = specs();
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("receivers", receivers);
        parameters.put("sizes", sizes);
        parameters.put("seconds", seconds);
        parameters.put("rounds", rounds);
        parameters.put("warmupSeconds", options.warmupSeconds);
        parameters.put("drainSeconds", options.drainSeconds);
        parameters.put("ttl", options.ttl);
        Comparison.run("throughput", "bench " + String.join(" ", spec.commandLine().getParseResult().originalArgs()),
                parameters, specs, options.out,
                List.of("size (B)", "packaging", "system", "receivers", "deliveries/s per receiver", "slowest",
                        "CPU us/delivery", "delivered/expected"),
                s -> List.of(Integer.toString(s.payloadBytes()), s.packaging(), s.system(),
                        Integer.toString(s.members() - 1), Comparison.num(s.perReceiverPerSecond(), 0),
                        Comparison.num(s.minPerReceiverPerSecond(), 0), Comparison.num(s.cpuMicrosPerDelivery(), 2),
                        Comparison.num(s.deliveredRatio(), 4)));
        return 0;
    }

    /** Every trial, validated before any runs: every size, packaging and system, once per round. */
    List<Comparison.Spec> specs() {
        if (rounds < 1 || rounds > 20) {
            throw new ParameterException(spec.commandLine(), "--rounds " + rounds + ": must be in 1..20");
        }
        List<Comparison.Spec> specs = new ArrayList<>();
        try {
            for (int round = 0; round < rounds; round++) {
                List<SystemKind> order = new ArrayList<>(systems);
                if (round % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (int size : sizes) {
                    for (Packaging packaging : options.packagings) {
                        for (SystemKind system : order) {
                            specs.add(new Comparison.Spec(packaging, plans(system, size, specs.size())));
                        }
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return specs;
    }

    private List<MemberPlan> plans(SystemKind system, int size, int trial) {
        List<MemberPlan> plans = new ArrayList<>();
        for (int id = 1; id <= receivers + 1; id++) {
            plans.add(new MemberPlan(system, id, receivers + 1, List.of(1),
                    id == 1 ? MemberPlan.Sending.FLOOD : MemberPlan.Sending.NONE, 0, size,
                    options.warmupSeconds, seconds, options.drainSeconds, 0, options.seed,
                    options.ttl, options.gmsPort(trial), options.basePort(trial), options.ricochetSettings));
        }
        return plans;
    }
}
