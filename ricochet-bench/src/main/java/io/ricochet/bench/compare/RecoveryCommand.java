package io.ricochet.bench.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench vs-jgroups recovery}: N members, each in all of d groups, each sending at a fixed rate round-robin
 * over its groups, with uniform receive loss on data messages; per trial the send-to-delivery latency of the
 * messages whose first copy was dropped, and delivered/expected.
 */
@Command(name = "recovery", sortOptions = false,
        description = {
            "--members members, each in all of d groups for each --degrees, each sending --rate messages/s "
                + "round-robin over its groups, --size bytes, --loss uniform receive loss on data messages (Ricochet: "
                + "the daemon's inject-loss; JGroups: DISCARD above UDP, data messages only; JGroups: d groups = d "
                + "channels per member). Writes recovery.json and recovery.md under --out: recovery latency "
                + "(send to delivery of the messages whose first copy was dropped) mean/p50/p99 and "
                + "delivered/expected.",
            "",
        })
public final class RecoveryCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private TrialOptions options;

    @Option(names = "--systems", paramLabel = "S", split = ",", defaultValue = "jgroups,jgroups-tuned,ricochet",
            converter = TrialOptions.SystemConverter.class,
            description = "jgroups, jgroups-tuned, jgroups-link, jgroups-encrypt, ricochet (default: "
                    + "${DEFAULT-VALUE})")
    private List<SystemKind> systems;

    @Option(names = "--members", paramLabel = "N", defaultValue = "8",
            description = "members (default: ${DEFAULT-VALUE})")
    private int members;

    @Option(names = "--degrees", paramLabel = "D", split = ",", defaultValue = "1,16,64",
            description = "groups each member is in (default: ${DEFAULT-VALUE})")
    private List<Integer> degrees;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "100",
            description = "messages per second each member sends (default: ${DEFAULT-VALUE})")
    private double rate;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "1000",
            description = "message size in bytes; Ricochet's must fit its default payload (messages of at most 1023 "
                    + "bytes) unless a variant sets it (default: ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--loss", paramLabel = "L", defaultValue = "0.01",
            description = "uniform receive loss on data messages (default: ${DEFAULT-VALUE})")
    private double loss;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "20",
            description = "seconds of sending after the warm-up (default: ${DEFAULT-VALUE})")
    private double seconds;

    @Override
    public Integer call() throws Exception {
        List<Comparison.Spec> specs = specs();
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("members", members);
        parameters.put("degrees", degrees);
        parameters.put("ratePerMember", rate);
        parameters.put("size", size);
        parameters.put("loss", loss);
        parameters.put("seconds", seconds);
        parameters.put("warmupSeconds", options.warmupSeconds);
        parameters.put("drainSeconds", options.drainSeconds);
        parameters.put("seed", options.seed);
        parameters.put("jgroupsGroups", "one JChannel per group per member");
        Comparison.run("recovery", "bench " + String.join(" ", spec.commandLine().getParseResult().originalArgs()),
                parameters, specs, options.out,
                List.of("d", "packaging", "system", "dropped", "timed (sent in window)", "mean (ms)", "p50 (ms)",
                        "p99 (ms)", "p99.9 (ms)", "max (ms)", "delivered/expected"),
                s -> List.of(Integer.toString(s.groupsPerMember()), s.packaging(), s.variant(),
                        Long.toString(s.drops()), Long.toString(s.recoveryMs().count()),
                        Comparison.num(s.recoveryMs().mean(), 2), Comparison.num(s.recoveryMs().p50(), 2),
                        Comparison.num(s.recoveryMs().p99(), 2), Comparison.num(s.recoveryP999Ms(), 2),
                        Comparison.num(s.recoveryMs().max(), 2),
                        Comparison.num(s.deliveredRatio(), 5)));
        return 0;
    }

    /** Every trial, validated before any runs. */
    List<Comparison.Spec> specs() {
        List<Comparison.Spec> specs = new ArrayList<>();
        try {
            for (int d : degrees) {
                if (d < 1 || d > MemberPlan.MAX_GROUP) {
                    throw new IllegalArgumentException("--degrees " + d + ": must be in 1.." + MemberPlan.MAX_GROUP);
                }
                List<Integer> groups = IntStream.rangeClosed(1, d).boxed().toList();
                for (Packaging packaging : options.packagings) {
                    for (SystemKind system : systems) {
                        int trial = specs.size();
                        List<MemberPlan> plans = new ArrayList<>();
                        for (int id = 1; id <= members; id++) {
                            plans.add(new MemberPlan(system, id, members, groups, MemberPlan.Sending.PACED, rate,
                                    size, options.warmupSeconds, seconds, options.drainSeconds, loss, options.seed,
                                    options.ttl, options.gmsPort(trial), options.basePort(trial),
                                    options.ricochetSettings, 0, options.credentials()));
                        }
                        specs.add(new Comparison.Spec(packaging, plans));
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return specs;
    }
}
