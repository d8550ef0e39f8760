package io.ricochet.bench.load;

import io.ricochet.auth.Authentication;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsOptions;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.daemon.GsoBatcher;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench load}: the command-line face of {@link LoadGenerator}. */
@Command(name = "load",
        sortOptions = false,
        description = {
            "A lightweight sender node for throughput experiments: registers with the GMS, joins --groups, then "
                + "multicasts Ricochet DATA frames of --payload bytes round-robin over them at --rate packets/s "
                + "(in total) for --seconds, or following --schedule, or until SIGTERM. Answers NAKs from a "
                + "bounded ring of what it sent (RETRANSMIT, or GONE), announces each group's last seqno, leaves "
                + "its groups, and prints (and writes, with --out) a JSON report: packets sent (per group and "
                + "over time), achieved rate, NAKs answered, its own CPU time.",
            "",
            "As a daemon, it authenticates every datagram with the cluster's --key-file (each one it sends is sealed "
                + "as a daemon seals it; each one it receives is opened first, and dropped unless authentic and "
                + "new) and speaks to the GMS over mutual TLS with a daemon certificate for its node id "
                + "(--tls-cert/--tls-key/--tls-ca). --insecure does neither, for a cluster run insecure.",
            "",
        })
public final class LoadCommand implements Callable<Integer> {
    /** How long SIGTERM waits for the report beyond the linger: the LEAVEs (up to 5 s) and writing. */
    private static final long REPORT_WAIT_MILLIS = 10_000;

    @Spec
    private CommandSpec spec;

    @Option(names = "--node-id", paramLabel = "N", required = true,
            description = "This node's id, unique in the cluster.")
    private int nodeId;

    @Option(names = "--interface", paramLabel = "IFACE", defaultValue = "lo",
            description = "Interface multicast goes out on (default: ${DEFAULT-VALUE}).")
    private String iface;

    @Option(names = "--address", paramLabel = "IPV4", defaultValue = "127.0.0.1",
            description = "This node's unicast IPv4 address on that interface (default: ${DEFAULT-VALUE}).")
    private InetAddress address;

    @Option(names = "--unicast-port", paramLabel = "PORT", defaultValue = "7300",
            description = "UDP port NAKs and repairs arrive on (default: ${DEFAULT-VALUE}).")
    private int unicastPort;

    @Option(names = "--gms", paramLabel = "HOST:PORT[/HOST:PORT...],...", defaultValue = "127.0.0.1:7100",
            converter = GmsEndpoints.Converter.class,
            description = "GMS partitions in partition order, separated by ','; each is its replicas separated by "
                    + "'/', as the daemon's gms key (default: ${DEFAULT-VALUE}).")
    private GmsEndpoints gms;

    @Option(names = "--groups", paramLabel = "LIST", required = true, converter = GroupList.Converter.class,
            description = "Groups to join and send to, e.g. 100..115 or 1,2,7.")
    private GroupList groups;

    @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "1000",
            description = "Packets per second over all groups (default: ${DEFAULT-VALUE}).")
    private double rate;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "How long to send (default: ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--schedule", paramLabel = "RATE:S,...", converter = RateSchedule.Converter.class,
            description = "Instead of --rate and --seconds: phases of a constant rate (packets/s over all groups) "
                    + "and a duration, one after the other, e.g. 120000:10,30000:15.")
    private RateSchedule schedule;

    @Option(names = "--payload", paramLabel = "BYTES", defaultValue = "1024",
            description = "Payload bytes per packet, as a daemon writes them: a kind byte, then one message of "
                    + "BYTES - 1 (default: ${DEFAULT-VALUE}, the daemon's payload). The frame and its authentication "
                    + "trailer must fit --mtu.")
    private int payload;

    @Option(names = "--mtu", paramLabel = "BYTES", defaultValue = "1500",
            description = "Largest IP packet the network carries, as the daemons' mtu setting: every datagram fits "
                    + "one (default: ${DEFAULT-VALUE}).")
    private int mtu;

    @Option(names = "--key-file", paramLabel = "FILE",
            description = "The cluster's key file (as the daemons': 'ricochet keygen --out FILE', mode 0600). "
                    + "Required unless --insecure.")
    private Path keyFile;

    @Option(names = "--insecure",
            description = "No datagram authentication and plaintext links to the GMS, for a cluster whose daemons "
                    + "run insecure = on and whose GMS runs --insecure; give neither --key-file nor --tls-*.")
    private boolean insecure;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON report to this file.")
    private Path out;

    @Option(names = "--tick-us", paramLabel = "MICROS", defaultValue = "1000",
            description = "Pacing interval: one batch and one flush per tick (default: ${DEFAULT-VALUE}).")
    private int tickMicros;

    @Option(names = "--retransmit-buffer", paramLabel = "PACKETS", defaultValue = "4096",
            description = "Sent packets kept per group to answer NAKs (default: ${DEFAULT-VALUE}).")
    private int retransmitPerGroup;

    @Option(names = "--linger-ms", paramLabel = "MS", defaultValue = "1500",
            description = "How long NAKs are still answered after the last packet (default: ${DEFAULT-VALUE}).")
    private int lingerMillis;

    @Option(names = "--join-timeout", paramLabel = "S", defaultValue = "15",
            description = "Seconds to wait for the GMS views (default: ${DEFAULT-VALUE}).")
    private int joinTimeoutSeconds;

    @Option(names = "--socket-buffer", paramLabel = "BYTES", defaultValue = "4194304",
            description = "SO_SNDBUF and SO_RCVBUF asked for (default: ${DEFAULT-VALUE}).")
    private int socketBytes;

    @Option(names = "--transport", paramLabel = "KIND", defaultValue = "auto", converter = SocketKind.Converter.class,
            description = "Socket implementation: auto|epoll|nio (default: ${DEFAULT-VALUE}).")
    private SocketKind transport;

    @Option(names = "--run", paramLabel = "FRAMES", defaultValue = "1",
            description = "Frames sent to a group in a row before the next group's turn (default: ${DEFAULT-VALUE}: "
                    + "round-robin).")
    private int run;

    @Option(names = "--gso",
            description = "Send each run of a group's frames (--run) as one UDP GSO send (Linux 4.18+, epoll): the "
                    + "run crosses the sending stack once and is split into its datagrams at the receiving "
                    + "socket, which reads them one by one. Makes the generator cheaper, not the receiver.")
    private boolean gso;

    @Option(names = "--multicast-loop", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Loop the multicast back to this host's own sockets, for a receiver on the same host "
                    + "(default: on). --no-multicast-loop saves a copy per datagram when none is.")
    private boolean multicastLoop;

    /** Required unless --insecure, which makes the links plaintext (the GMS must then run --insecure). */
    @Mixin
    private TlsOptions tls;

    @Override
    public Integer call() throws Exception {
        LoadConfig config;
        try {
            Authentication auth = authentication();
            TlsSettings links = tls.settings(insecure, "--insecure", PeerIdentity.Role.DAEMON,
                    PeerIdentity.nodeName(nodeId));
            config = new LoadConfig(nodeId, iface, address, unicastPort, gms, groups, schedule(), payload,
                    tickMicros, retransmitPerGroup, lingerMillis, joinTimeoutSeconds, socketBytes, transport, run, gso,
                    multicastLoop, mtu, links, auth);
            String noGso = gso ? GsoBatcher.unavailable(transport.useEpoll()) : null;
            if (noGso != null) {
                throw new IllegalArgumentException("--gso: " + noGso);
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        LoadGenerator generator = new LoadGenerator(config);
        CountDownLatch reported = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            generator.stop();
            await(reported, lingerMillis + REPORT_WAIT_MILLIS);
        }, "load-stop"));
        try {
            LoadReport report = generator.run();
            System.err.println(report.summary());
            System.out.println(JsonFiles.text(report));
            if (out != null) {
                JsonFiles.write(out, report);
            }
            return 0;
        } finally {
            reported.countDown();
        }
    }

    /** The --key-file's keys, or none with --insecure; neither or both is refused. */
    private Authentication authentication() {
        if (insecure && keyFile != null) {
            throw new IllegalArgumentException("--key-file and --insecure were both given: choose one");
        }
        if (!insecure && keyFile == null) {
            throw new IllegalArgumentException("no --key-file: give the cluster's key file, the daemons' key-file "
                    + "(make one with 'ricochet keygen --out FILE'), or run unauthenticated on purpose with "
                    + "--insecure (the daemons then need insecure = on)");
        }
        try {
            return Authentication.from(keyFile, insecure);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--key-file: " + e.getMessage(), e);
        }
    }

    /** The --schedule, or --rate for --seconds; both kinds at once is an error. */
    private RateSchedule schedule() {
        if (schedule == null) {
            return RateSchedule.constant(rate, seconds);
        }
        boolean constant = spec.commandLine().getParseResult().hasMatchedOption("--rate")
                || spec.commandLine().getParseResult().hasMatchedOption("--seconds");
        if (constant) {
            throw new IllegalArgumentException("--schedule replaces --rate and --seconds: give either --schedule, "
                    + "or --rate and --seconds");
        }
        return schedule;
    }

    private static void await(CountDownLatch latch, long millis) {
        try {
            latch.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
