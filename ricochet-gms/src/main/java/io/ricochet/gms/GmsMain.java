package io.ricochet.gms;

import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsOptions;
import io.ricochet.metrics.MetricsOptions;
import io.ricochet.support.OnOff;
import io.ricochet.support.ProjectVersion;
import io.ricochet.support.UsageSetup;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * {@code ricochet-gms}: runs one replica of the group membership service until SIGTERM (or Ctrl-C), then closes
 * every connection and logs its counters. Entry point of {@code ricochet-gms/target/ricochet-gms.jar}.
 *
 * <p>Exit codes: 0 stopped by a signal, 1 could not start (for instance the port is in use), 2 bad command-line
 * input, reported on one line of standard error.
 */
@Command(name = "ricochet-gms",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        modelTransformer = UsageSetup.class,
        sortOptions = false,
        description = {
            "Runs one replica of Ricochet's group membership service (GMS). Daemons connect over TCP, register, "
                + "and join or leave groups; a partition keeps each group's members, protocol, view id and "
                + "multicast address, and pushes every join, leave and failure to the group's members. Failure "
                + "detectors report failed and recovered nodes to every partition.",
            "",
            "Groups are spread over the partitions by group id: partition i of P owns group g when "
                + "floorMod(g, P) = i, and refuses the others. One process serves every partition (or only "
                + "--partition I), partition i on port --port + i.",
            "",
            "Each partition is a Raft group (Apache Ratis) of the replicas listed in --replicas, 3 for a GMS that "
                + "survives any one failure: every join, leave, failure and recovery is committed by a majority "
                + "before any member hears of it, and kept in --storage across restarts. The replica that leads a "
                + "partition serves its daemons; the others redirect them to it. Start the same command on every "
                + "replica, each with its own --replica. Without --replicas the process is a replica alone "
                + "(no failover) at --bind, --port and --raft-port.",
            "",
            "Connections use mutual TLS: every daemon and detector presents a certificate signed by the cluster's CA "
                + "(--tls-ca) whose OU is its role. Only daemons (OU=daemon) may register, join and leave, each "
                + "only as the node its CN names (CN=node-<id>); only failure detectors (OU=detector) may report "
                + "failures and recoveries, and only watch racks. The replicas speak Raft to each other over mutual "
                + "TLS too, each with a certificate of OU=gms. scripts/certs makes a test CA and certificates.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 stopped by SIGTERM/SIGINT, 1 could not start (e.g. port in use), 2 bad input.",
            "Its flags: docs/operations.md, 1.4 Daemon settings (after the table); replicas: 1.7 A replicated GMS.",
        })
public final class GmsMain implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--partition", paramLabel = "I",
            description = "Serve only partition I (0-based) instead of all of them; its replicas must be started "
                    + "the same way.")
    private Integer partition;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "1",
            description = "How many partitions the GMS has in all (default: ${DEFAULT-VALUE}).")
    private int partitions;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1", converter = IpLiteral.Any.class,
            description = "IP address to listen on (default: ${DEFAULT-VALUE}).")
    private InetAddress bind;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + GmsConfig.DEFAULT_BASE_PORT,
            description = "TCP port of partition 0; partition i is served on PORT + the partition index, so with "
                    + "the default partition 0 on " + GmsConfig.DEFAULT_BASE_PORT + ", 1 on "
                    + (GmsConfig.DEFAULT_BASE_PORT + 1) + ", ... (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--raft-port", paramLabel = "PORT", defaultValue = "" + GmsConfig.DEFAULT_RAFT_PORT,
            description = "TCP port of this replica's Raft traffic, for every partition it serves, when alone "
                    + "(without --replicas) (default: ${DEFAULT-VALUE}).")
    private int raftPort;

    @Option(names = "--replicas", paramLabel = "ID=HOST:PORT:RAFTPORT", split = ",",
            description = "Every replica of the GMS, the same list on each: its id (1..255), address, control port "
                    + "of partition 0 and Raft port, e.g. 1=10.0.0.1:7100:7190,2=10.0.0.2:7100:7190,"
                    + "3=10.0.0.3:7100:7190. Use with --replica; then --bind, --port and --raft-port come from "
                    + "this list.")
    private List<String> replicas;

    @Option(names = "--replica", paramLabel = "ID",
            description = "Which entry of --replicas this process is.")
    private Integer replica;

    @Option(names = "--storage", paramLabel = "DIR",
            description = "Directory of this replica's Raft logs and snapshots, created if missing; it must "
                    + "survive restarts and belong to this replica alone (default: ricochet-gms-data/r<ID> in "
                    + "the working directory, with -p<I> for --partition I).")
    private Path storage;

    @Option(names = "--election-timeout-ms", paramLabel = "MS",
            defaultValue = "" + 500,
            description = "A replica that hears nothing from the partition's leader for a random time between MS "
                    + "and 2 x MS elects a new one; so a dead leader is replaced in about MS to 2 x MS, and a "
                    + "pause longer than MS deposes a live one (default: ${DEFAULT-VALUE}).")
    private int electionTimeoutMs;

    @Option(names = "--snapshot-every", paramLabel = "N", defaultValue = "" + 10_000,
            description = "Snapshot a partition's state every N committed changes and drop the log before it "
                    + "(default: ${DEFAULT-VALUE}).")
    private long snapshotEvery;

    @Option(names = "--mcast-base", paramLabel = "ADDRESS", defaultValue = GmsConfig.DEFAULT_MCAST_BASE,
            converter = IpLiteral.V4.class,
            description = "First address of the /16 multicast pool: group g gets base + (g mod 65536) "
                    + "(default: ${DEFAULT-VALUE}).")
    private Inet4Address mcastBase;

    @Option(names = "--mcast-port", paramLabel = "PORT", defaultValue = "" + GmsConfig.DEFAULT_MCAST_PORT,
            description = "UDP port of every group's multicast address (default: ${DEFAULT-VALUE}).")
    private int mcastPort;

    @Option(names = "--regions",
            description = "Give groups QSM regions (docs/design/regions.md): the nodes with the same groups within "
                    + "each set of regularly overlapping groups share one multicast address from the region pool, "
                    + "and a message goes once to each region of its group instead of to the group's address. "
                    + "Every replica must be started with the same region options (default: off).")
    private boolean regions;

    @Option(names = "--region-mcast-base", paramLabel = "ADDRESS", defaultValue = RegionSettings.DEFAULT_BASE,
            converter = IpLiteral.V4.class,
            description = "First address of the /16 pool of region addresses, on --mcast-port; it must differ from "
                    + "--mcast-base (default: ${DEFAULT-VALUE}).")
    private Inet4Address regionBase;

    @Option(names = "--min-region-size", paramLabel = "N",
            defaultValue = "" + RegionSettings.DEFAULT_MIN_REGION_SIZE,
            description = "With --regions: a group joins a set of groups only if it leaves no region of the set "
                    + "with fewer than N nodes (1: every group in one set, exact regions) (default: "
                    + "${DEFAULT-VALUE}).")
    private int minRegionSize;

    @Option(names = "--stats-interval", paramLabel = "SECONDS",
            defaultValue = "" + GmsConfig.DEFAULT_STATS_INTERVAL_SECONDS,
            description = "Seconds between two counter lines in the log (default: ${DEFAULT-VALUE}).")
    private int statsIntervalSeconds;

    @Option(names = "--max-connections", paramLabel = "N",
            defaultValue = "" + FrontDoorSettings.DEFAULT_MAX_CONNECTIONS,
            description = "Connections each partition's port holds at once; one more is closed as it is accepted, "
                    + "before any TLS, counted (connections-over-total) and logged at most once a minute. A "
                    + "partition has a session with each daemon and one or two with each failure detector; keep N "
                    + "times the partitions served under the open-file limit (default: ${DEFAULT-VALUE}).")
    private int maxConnections;

    @Option(names = "--max-connections-per-address", paramLabel = "N",
            defaultValue = "" + FrontDoorSettings.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            description = "Connections from one IP address each partition's port holds at once (at most "
                    + "--max-connections), so that one host cannot take every place; one more is closed as it is "
                    + "accepted, counted (connections-over-address) and logged at most once a minute. Processes on "
                    + "this replica's own host are held only to --max-connections (default: ${DEFAULT-VALUE}).")
    private int maxConnectionsPerAddress;

    @Option(names = "--tls-handshake-timeout-ms", paramLabel = "MS",
            defaultValue = "" + FrontDoorSettings.DEFAULT_HANDSHAKE_TIMEOUT_MS,
            description = "A connection whose TLS handshake has not finished MS after it was accepted is closed, "
                    + "counted (handshake-timeouts) and logged at most once a minute; "
                    + FrontDoorSettings.MIN_HANDSHAKE_TIMEOUT_MS + ".." + FrontDoorSettings.MAX_HANDSHAKE_TIMEOUT_MS
                    + " (default: ${DEFAULT-VALUE}).")
    private int handshakeTimeoutMs;

    @Option(names = "--session-requests-in-flight", paramLabel = "N",
            defaultValue = "" + FrontDoorSettings.DEFAULT_SESSION_REQUESTS_IN_FLIGHT,
            description = "A session (a daemon's or a detector's) with N requests in the Raft log not yet "
                    + "committed is not read until half of them are; what it sent waits, and every request is "
                    + "answered in order (counted: session-pauses) (default: ${DEFAULT-VALUE}).")
    private int sessionRequestsInFlight;

    @Mixin
    private MetricsOptions metrics;

    @Mixin
    private TlsOptions tls;

    @Option(names = "--key-fingerprint", paramLabel = "ID:HEX", split = ",",
            description = "Fingerprints of the cluster's datagram keys, as each daemon logs them at start ('key "
                    + "fingerprints ...'); repeat or separate with commas, one per key id (both during a rotation). A "
                    + "REGISTER whose send key is not among them, or that names a key with another fingerprint, is "
                    + "refused (KEY_MISMATCH) and the daemon stops. Without it nothing is refused; a fingerprint "
                    + "that differs from the first seen for its id is logged.")
    private List<String> keyFingerprints;

    @Option(names = "--insecure", paramLabel = "on|off", arity = "0..1", fallbackValue = "on", defaultValue = "off",
            converter = OnOff.Converter.class,
            description = "on: plaintext connections and no roles: any host that reaches the port can register as "
                    + "any node, join, leave and report failures. Said in the log. Never in production. The bare "
                    + "--insecure means on, as before (default: ${DEFAULT-VALUE}).")
    private OnOff insecure;

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

    private List<KeyFingerprint> keys() {
        List<KeyFingerprint> keys = new ArrayList<>();
        for (String text : keyFingerprints == null ? List.<String>of() : keyFingerprints) {
            try {
                keys.add(KeyFingerprint.parse(text.strip()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--key-fingerprint: " + e.getMessage(), e);
            }
        }
        return keys;
    }

    private GmsConfig config() {
        try {
            int partitions = this.partitions;
            if (partitions < 1) {
                throw new IllegalArgumentException("--partitions must be at least 1, got " + partitions);
            }
            List<Integer> hosted = new ArrayList<>();
            if (partition != null) {
                if (partition < 0 || partition >= partitions) {
                    throw new IllegalArgumentException("--partition " + partition + " is out of range 0.."
                            + (partitions - 1));
                }
                hosted.add(partition);
            } else {
                IntStream.range(0, partitions).forEach(hosted::add);
            }
            List<Replica> list;
            int self;
            if (replicas == null && replica == null) {
                if (port < 0 || port > 0xFFFF) {
                    throw new IllegalArgumentException("--port must be in 0..65535, got " + port);
                }
                list = List.of(new Replica(1, bind, port, raftPort));
                self = 1;
            } else if (replicas == null || replica == null) {
                throw new IllegalArgumentException("--replicas and --replica go together: list every replica, and "
                        + "say which one this process is");
            } else {
                if (spec.commandLine().getParseResult().hasMatchedOption("--bind")
                        || spec.commandLine().getParseResult().hasMatchedOption("--port")
                        || spec.commandLine().getParseResult().hasMatchedOption("--raft-port")) {
                    throw new IllegalArgumentException("with --replicas, this replica's address and ports come from "
                            + "its entry; drop --bind, --port and --raft-port");
                }
                list = new ArrayList<>();
                for (String entry : replicas) {
                    list.add(parseReplica(entry));
                }
                self = replica;
            }
            Path dir = storage != null ? storage : Path.of("ricochet-gms-data",
                    "r" + self + (partition != null ? "-p" + partition : ""));
            MulticastPool pool = new MulticastPool(mcastBase, mcastPort);
            return new GmsConfig(partitions, hosted, list, self, pool, statsIntervalSeconds,
                    tls.settings(insecure.isOn(), "--insecure on", PeerIdentity.Role.GMS, null), dir.toAbsolutePath(),
                    new RaftSettings(electionTimeoutMs, snapshotEvery), metrics.bind(),
                    new RegionSettings(regions, regions ? new MulticastPool(regionBase, mcastPort) : null,
                            minRegionSize), keys(), new FrontDoorSettings(maxConnections, maxConnectionsPerAddress,
                    handshakeTimeoutMs, sessionRequestsInFlight));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** {@code ID=HOST:PORT:RAFTPORT}, HOST an IPv4 literal. */
    static Replica parseReplica(String entry) {
        String usage = " (expected ID=HOST:PORT:RAFTPORT, e.g. 2=10.0.0.2:7100:7190)";
        int eq = entry.indexOf('=');
        String[] parts = eq < 0 ? new String[0] : entry.substring(eq + 1).split(":", -1);
        if (eq < 1 || parts.length != 3) {
            throw new IllegalArgumentException("replica '" + entry + "' is malformed" + usage);
        }
        try {
            int id = Integer.parseInt(entry.substring(0, eq));
            InetAddress host = IpLiteral.parse(parts[0]);
            if (!(host instanceof Inet4Address) || host.isAnyLocalAddress()) {
                throw new IllegalArgumentException("replica '" + entry + "': " + parts[0] + " is not an IPv4 "
                        + "address others can reach" + usage);
            }
            return new Replica(id, host, Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        } catch (NumberFormatException | TypeConversionException e) {
            throw new IllegalArgumentException("replica '" + entry + "': " + e.getMessage() + usage);
        }
    }
}
