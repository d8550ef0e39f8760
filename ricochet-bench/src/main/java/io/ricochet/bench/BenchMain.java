package io.ricochet.bench;

import io.ricochet.bench.compare.VsJGroupsCommand;
import io.ricochet.bench.experiment.ExperimentCommand;
import io.ricochet.bench.jmh.JmhCommand;
import io.ricochet.bench.load.LoadCommand;
import io.ricochet.bench.load.SinkCommand;
import io.ricochet.bench.overload.OverloadReportCommand;
import io.ricochet.bench.transport.ApiTransportCommand;
import io.ricochet.support.ProjectVersion;
import io.ricochet.support.UsageSetup;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code bench} command: entry point of {@code ricochet-bench/target/ricochet-bench.jar}, run by
 * {@code scripts/bench}. Each subcommand is one class named in {@code subcommands} below. Exit codes as
 * {@code ricochet}: 0 success, 1 the command ran and failed, 2 bad command-line input.
 */
@Command(name = "bench",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        modelTransformer = UsageSetup.class,
        subcommands = {
            CommandLine.HelpCommand.class,
            LoadCommand.class,
            SinkCommand.class,
            OverloadReportCommand.class,
            JmhCommand.class,
            ExperimentCommand.class,
            ApiTransportCommand.class,
            VsJGroupsCommand.class,
            io.ricochet.bench.rx.RxPathsCommand.class,
            io.ricochet.bench.gms.GmsBenchCommand.class,
            io.ricochet.bench.fountain.LtCodesCommand.class,
            io.ricochet.bench.fountain.LayeredCommand.class,
            io.ricochet.bench.perturb.PerturbCommand.class,
            io.ricochet.bench.perturb.ClusterPerturbCommand.class,
            io.ricochet.bench.perturb.BimodalModelCommand.class,
            io.ricochet.bench.perturb.ReceiversCommand.class,
            io.ricochet.bench.regions.RegionsCommand.class,
            io.ricochet.bench.adaptive.AdaptiveLecCommand.class,
        },
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Ricochet's experiment tools: the paper's evaluation in the simulator (experiment), JMH micro-benchmarks "
                    + "(jmh), load generators and sinks for measurements on real sockets (load, sink) with the "
                    + "overload experiment's report (overload-report), the local API over TCP against its Unix "
                    + "domain socket (api-transport), and the comparison with JGroups (vs-jgroups).",
            "",
        })
public final class BenchMain implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    /**
     * Runs {@code bench} with {@code args} and exits with the command's exit code.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    /** {@code bench} alone: a command is required. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(),
                "no command given; use one of: " + String.join(", ", spec.subcommands().keySet()));
    }
}
