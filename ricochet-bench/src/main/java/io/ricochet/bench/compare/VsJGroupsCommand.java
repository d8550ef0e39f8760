package io.ricochet.bench.compare;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench vs-jgroups}: the JGroups comparison's experiments, and the member command their processes run. */
@Command(name = VsJGroupsCommand.NAME,
        subcommands = {ThroughputCommand.class, RecoveryCommand.class, MemberCommand.class},
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Ricochet (as the package configures it: default settings, authenticated) against JGroups "
                + "(org.jgroups 5.5.0.Final: stock udp.xml, tuned for the link, with SYM_ENCRYPT), members packaged "
                + "alike on both sides: one process per member, or all members in one JVM. On 127.0.0.x loopback "
                + "(run it where loopback carries multicast: scripts/experiments/vs-jgroups runs it in a private "
                + "network namespace), or with throughput --link mtu=N on a real link of namespaces, veth pairs "
                + "and a bridge the harness makes (root).",
            "",
        })
public final class VsJGroupsCommand implements Callable<Integer> {
    /** The command's name. */
    public static final String NAME = "vs-jgroups";

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(),
                "no experiment given; use one of: " + String.join(", ", spec.subcommands().keySet()));
    }
}
