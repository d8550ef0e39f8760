package io.ricochet.gms;

import io.ricochet.control.Partitioning;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsOptions;
import io.ricochet.support.UsageSetup;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code ricochet-gms}: runs one partition of the group membership service until SIGTERM (or Ctrl-C), then closes
 * every connection and logs its counters. Entry point of {@code ricochet-gms/target/ricochet-gms.jar}.
 *
 * <p>Exit codes: 0 stopped by a signal, 1 could not start (for instance the port is in use), 2 bad command-line
 * input, reported on one line of standard error.
 */
@Command(name = "ricochet-gms",
        mixinStandardHelpOptions = true,
        version = "ricochet-gms 0.1.0",
        modelTransformer = UsageSetup.class,
        sortOptions = false,
        description = {
            "Runs one partition of Ricochet's group membership service (GMS). Daemons connect over TCP, register, "
                + "and join or leave groups; the partition keeps each group's members, protocol, view id and "
                + "multicast address, and pushes every join, leave and failure to the group's members. Failure "
                + "detectors report failed and recovered nodes to every partition.",
            "",
            "Groups are spread over the partitions by group id: partition i of P owns group g when "
                + "floorMod(g, P) = i, and refuses the others. Run one process per partition, each with the "
                + "same --partitions.",
            "",
            "Connections use mutual TLS: every daemon and detector presents a certificate signed by the cluster's CA "
                + "(--tls-ca) whose OU is its role. Only daemons (OU=daemon) may register, join and leave, each "
                + "only as the node its CN names (CN=node-<id>); only failure detectors (OU=detector) may report "
                + "failures and recoveries. scripts/certs makes a test CA and certificates.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 stopped by SIGTERM/SIGINT, 1 could not start (e.g. port in use), 2 bad input.",
        })
public final class GmsMain implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--partition", paramLabel = "I", defaultValue = "0",
            description = "This partition's index, 0-based (default: ${DEFAULT-VALUE}).")
    private int partition;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "1",
            description = "How many partitions the GMS has in all (default: ${DEFAULT-VALUE}).")
    private int partitions;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1", converter = IpLiteral.Any.class,
            description = "IP address to listen on (default: ${DEFAULT-VALUE}).")
    private InetAddress bind;

    @Option(names = "--port", paramLabel = "PORT",
            description = "TCP port to listen on (default: " + GmsConfig.DEFAULT_BASE_PORT + " + the partition "
                    + "index, so partition 0 on " + GmsConfig.DEFAULT_BASE_PORT + ", 1 on "
                    + (GmsConfig.DEFAULT_BASE_PORT + 1) + ", ...).")
    private Integer port;

    @Option(names = "--mcast-base", paramLabel = "ADDRESS", defaultValue = GmsConfig.DEFAULT_MCAST_BASE,
            converter = IpLiteral.V4.class,
            description = "First address of the /16 multicast pool: group g gets base + (g mod 65536) "
                    + "(default: ${DEFAULT-VALUE}).")
    private Inet4Address mcastBase;

    @Option(names = "--mcast-port", paramLabel = "PORT", defaultValue = "" + GmsConfig.DEFAULT_MCAST_PORT,
            description = "UDP port of every group's multicast address (default: ${DEFAULT-VALUE}).")
    private int mcastPort;

    @Option(names = "--stats-interval", paramLabel = "SECONDS",
            defaultValue = "" + GmsConfig.DEFAULT_STATS_INTERVAL_SECONDS,
            description = "Seconds between two counter lines in the log (default: ${DEFAULT-VALUE}).")
    private int statsIntervalSeconds;




    @Mixin
    private TlsOptions tls;

    @Option(names = "--insecure",
            description = "Plaintext connections and no roles: any host that reaches the port can register as any "
                    + "node, join, leave and report failures. Said in the log. Never in production.")
    private boolean insecure;

    /**
     * Runs {@code ricochet-gms} with {@code args} and exits with its exit code.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new GmsMain()).execute(args));
    }

    @Override
    public Integer call() {
        GmsConfig config = config();
        GmsServer server = new GmsServer(config);
        try {
            server.start();
        } catch (IOException e) {
            spec.commandLine().getErr().println("ricochet-gms: " + e.getMessage());
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "gms-shutdown"));
        server.awaitClose();
        return 0;
    }

    private GmsConfig config() {
        int listenPort = port != null ? port : GmsConfig.DEFAULT_BASE_PORT + partition;
        if (listenPort < 0 || listenPort > 0xFFFF) {
            throw new ParameterException(spec.commandLine(), "--port must be in 0..65535, got " + listenPort);
        }
        try {
            Partitioning partitioning = new Partitioning(partition, partitions);
            InetSocketAddress address = new InetSocketAddress(bind, listenPort);
            MulticastPool pool = new MulticastPool(mcastBase, mcastPort);
            return new GmsConfig(partitioning, address, pool, statsIntervalSeconds,
                    tls.settings(insecure, "--insecure", PeerIdentity.Role.GMS, null));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
