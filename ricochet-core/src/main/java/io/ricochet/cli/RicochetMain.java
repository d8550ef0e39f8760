package io.ricochet.cli;

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
 * The {@code ricochet} command: entry point of {@code target/ricochet.jar}. Each subcommand is one class named in
 * {@code subcommands} below; adding a command is adding it to that list. Every subcommand inherits
 * {@code --help} and {@code --version}.
 *
 * <p>Exit codes: 0 success, 1 the command ran and failed (for instance a simulation failed verification), 2 bad
 * command-line input, reported on one line of standard error.
 */
@Command(name = "ricochet",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        modelTransformer = UsageSetup.class,
        subcommands = {
            CommandLine.HelpCommand.class,
            SimulateCommand.class,
            DaemonCommand.class, KeygenCommand.class,
            SendCommand.class, ListenCommand.class, StatsCommand.class, TopCommand.class,
            WorkloadCommand.class,
            FountainCommand.class,
        },
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Ricochet is reliable multicast for datacenter clusters with many overlapping groups. Receivers "
                + "recover lost packets without waiting on the sender: each node XORs the data packets it "
                + "receives into repair packets and sends them to a few other receivers (Lateral Error Correction, "
                + "tuned by the rate-of-fire r and c), so a lost packet is usually rebuilt within milliseconds; "
                + "the rest are fetched from the sender with NAKs.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed (e.g. a simulation failed verification), 2 bad input.",
        })
public final class RicochetMain implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /**
     * Runs {@code ricochet} with {@code args} and exits with the command's exit code.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new RicochetMain()).execute(args));
    }

    /** {@code ricochet} alone: a command is required. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(),
                "no command given; use one of: " + String.join(", ", spec.subcommands().keySet()));
    }
}
