package io.ricochet.fd;

import io.ricochet.auth.Authentication;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.message.Watch;
import io.ricochet.control.tls.PeerIdentity;
import io.ricochet.control.tls.TlsOptions;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.control.verdict.DetectorAddresses;
import io.ricochet.metrics.MetricsOptions;
import io.ricochet.support.OnOff;
import io.ricochet.support.ProjectVersion;
import io.ricochet.support.UsageErrorHandler;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code ricochet-fd} command, entry point of {@code ricochet-fd/target/ricochet-fd.jar}: reads and checks the
 * flags, then runs one failure detector server until SIGTERM ({@link FdRunner}).
 *
 * <p>Exit codes: 143 (128 + SIGTERM, as for any JVM stopped by the signal) after the clean stop SIGTERM triggers,
 * 1 could not start (the bind address is taken, for instance), 2 bad command-line input, reported on one line of
 * standard error followed by a pointer to {@code --help}.
 */
@Command(name = "ricochet-fd",
        mixinStandardHelpOptions = true,
        versionProvider = ProjectVersion.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Ricochet failure detector (paper, section 4.2.4). A rack detector pings the daemons of its rack "
                + "every interval and reports a daemon as failed, and as recovered when it answers again, to every "
                + "GMS partition (--gms).",
            "Which daemons: with --rack R, those the GMS lists to it: the daemons registered in rack R, and the "
                + "racks of failed rack detectors the GMS moves to it; the list follows registrations and moves as "
                + "they happen. With --standby, only racks moved to it: the GMS moves the racks of a rack detector "
                + "the top level reports failed to a live standby (else to the next rack's detector), and back when "
                + "it recovers. --members lists daemons by hand instead, or beside either: those are always watched. "
                + "A daemon the GMS adds is reported recovered on its first answer (its previous detector may have "
                + "reported it failed); one it takes off is forgotten, and this detector's verdict on it is not "
                + "sent again.",
            "A daemon is failed when it has missed at least --miss rounds in a row and its silence is improbable "
                + "given its own history of heartbeat arrivals (phi-accrual: phi >= --phi-threshold). Late answers "
                + "count as heartbeats, so a busy daemon is not failed; a tick of this detector that runs more "
                + "than two intervals late (it was starved itself) judges nobody.",
            "A top-level detector watches rack detectors (--watch-detectors) and the next top-level detector of "
                + "its chain (--chain-next) the same way. Every detector answers the heartbeats sent to it, so "
                + "one process can be both.",
            "",
        },
        footer = {
            "",
            "With the defaults a daemon that answered every round promptly and then crashes is reported 2.7 s after "
                + "its last answer, that is 2.6 to 2.7 s after the crash; one that never answered, after 5 rounds.",
            "Logs go to standard error: failures at WARN, recoveries and counters (every 10 s) at INFO.",
            "Runs until SIGTERM or SIGINT, which close the socket and exit with status 143 or 130.",
            "Exit status: 1 could not start (e.g. --bind address in use), 2 bad input.",
            "Its flags: docs/operations.md, 1.4 Daemon settings (after the table); design: "
                + "docs/design/failure-detection.md.",
        })
public final class FdMain implements Callable<Integer> {

    private static final long MAX_INTERVAL_MS = 60_000;
    private static final int MAX_MISS = 1_000;
    private static final double MAX_PHI_THRESHOLD = 100;
    private static final long MAX_PAUSE_MS = 600_000;
    private static final long MAX_STD_DEV_MS = 60_000;
    private static final int MAX_RACK = 65_535;

    @Spec
    private CommandSpec spec;

    @Option(names = "--id", required = true, paramLabel = "NAME", converter = FdConverters.Name.class,
            description = "This detector's name (letters, digits, '.', '_', '-'): what watchers list it as in "
                    + "--watch-detectors / --chain-next, and what the GMS is told when it fails.")
    private String id;

    @Option(names = "--bind", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7200",
            converter = FdConverters.Bind.class,
            description = "UDP address to listen on: heartbeats are sent from it, and acks and the heartbeats of "
                    + "watchers arrive on it; port 0 picks a free port (default: ${DEFAULT-VALUE}).")
    private InetSocketAddress bind;

    @Option(names = "--rack", paramLabel = "R",
            description = "This is the detector of rack R, 1..65535: it watches the daemons the GMS lists to it "
                    + "(those registered with rack=R, and any rack it takes over), asked from GMS partition 0 on "
                    + "every session with its leader. Needs --gms.")
    private Integer rack;

    @Option(names = "--standby",
            description = "This detector has no rack of its own: it watches the racks of failed rack detectors "
                    + "that the GMS moves to it, until they recover. Needs --gms; not with --rack.")
    private boolean standby;

    @Option(names = "--members", paramLabel = "NODE@HOST:PORT", split = ",", converter = FdConverters.Daemon.class,
            description = "Daemons to watch always, comma-separated: each daemon's node id and the heartbeat "
                    + "address where it answers heartbeats, its heartbeat-port, 7500 by default (e.g. "
                    + "1@10.0.0.1:7500,2@10.0.0.2:7500). Without --rack "
                    + "or --standby, the whole rack; with one, watched beside the GMS's list, which never removes "
                    + "them.")
    private List<Target> members = new ArrayList<>();

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "100",
            description = "Time between heartbeat rounds, 1.." + MAX_INTERVAL_MS + " (default: ${DEFAULT-VALUE}).")
    private long intervalMs;

    @Option(names = "--miss", paramLabel = "N", defaultValue = "5",
            description = "The least number of consecutive unanswered rounds before a target is reported failed; a "
                    + "target never heard from is failed after exactly N, 1.." + MAX_MISS
                    + " (default: ${DEFAULT-VALUE}).")
    private int miss;

    @Option(names = "--phi-threshold", paramLabel = "PHI", defaultValue = "8",
            description = "Suspicion level at which a target that missed --miss rounds is reported failed: phi is "
                    + "-log10 of the chance that a live target stays silent this long, given its history; 8 "
                    + "means a chance of 10^-8. Higher is slower but safer, 1.." + "100 (default: ${DEFAULT-VALUE}).")
    private double phiThreshold;

    @Option(names = "--acceptable-pause-ms", paramLabel = "MS", defaultValue = "2000",
            description = "Silence beyond a target's usual time between heartbeats that is still normal (GC pause, "
                    + "load burst): added to the mean of its history, 0.." + MAX_PAUSE_MS
                    + " (default: ${DEFAULT-VALUE}).")
    private long acceptablePauseMs;

    @Option(names = "--min-std-dev-ms", paramLabel = "MS", defaultValue = "100",
            description = "Floor of the standard deviation of a target's time between heartbeats, so that a very "
                    + "regular target is not failed for a small delay, 1.." + MAX_STD_DEV_MS
                    + " (default: ${DEFAULT-VALUE}).")
    private long minStdDevMs;

    @Option(names = "--key-file", paramLabel = "FILE",
            description = "The cluster's key file (mode 0600; 'ricochet keygen --out FILE' makes one), the same the "
                    + "daemons read: every heartbeat and ack is authenticated with it. Required unless --insecure on.")
    private Path keyFile;

    @Option(names = "--insecure", paramLabel = "on|off", arity = "0..1", fallbackValue = "on", defaultValue = "off",
            converter = OnOff.Converter.class,
            description = "on: run without authentication: anyone who reaches this detector's socket can forge acks "
                    + "and keep a dead daemon alive, and the links to the GMS are plaintext. Said in the log. Never "
                    + "in production. The bare --insecure means on, as before (default: ${DEFAULT-VALUE}).")
    private OnOff insecure;

    @Option(names = "--max-clock-skew-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Authenticated heartbeats and acks sent further than this from this host's clock, either "
                    + "way, are dropped as stale (counted, and logged naming the source): keep every host in sync "
                    + "with NTP, well within it. At least 100 (default: ${DEFAULT-VALUE}).")
    private long maxClockSkewMs;

    @Mixin
    private MetricsOptions metrics;

    @Mixin
    private TlsOptions tls;

    @Option(names = "--gms", paramLabel = "HOST:PORT[/HOST:PORT...][,...]",
            description = "The GMS partitions in partition order, separated by ','; each is its replicas separated "
                    + "by '/' (e.g. 10.0.0.1:7100/10.0.0.2:7100/10.0.0.3:7100,10.0.0.1:7101/10.0.0.2:7101/"
                    + "10.0.0.3:7101, or host:port,host:port for one replica each). Every verdict goes to each "
                    + "partition's leader, found through its replicas; with --rack or --standby, partition 0's "
                    + "leader also lists the daemons to watch. Without it verdicts are only logged.")
    private String gms;

    @Option(names = "--watch-detectors", paramLabel = "ID@HOST:PORT", split = ",",
            converter = FdConverters.Detector.class,
            description = "Top level: rack detectors to watch, comma-separated, each as its --id and --bind "
                    + "address (e.g. rack-1@10.0.0.254:7200,rack-2@10.0.1.254:7200: a detector's port, 7200 by "
                    + "default, not the GMS's 7100 nor a daemon's 7500); one that stops answering is reported as a "
                    + "failed detector.")
    private List<Target> watchDetectors = new ArrayList<>();

    @Option(names = "--chain-next", paramLabel = "ID@HOST:PORT", converter = FdConverters.Detector.class,
            description = "Top level: the next detector of the top-level chain, watched like --watch-detectors.")
    private Target chainNext;

    @Option(names = "--watched-by", paramLabel = "ID@HOST:PORT[,...]", defaultValue = "",
            description = "The detectors that ping this one (the top level, the previous member of its chain), each "
                    + "as its --id and --bind address: a heartbeat is answered only at its detector's address "
                    + "here, never at the address it came from, and one of a detector not listed is not answered. "
                    + "Empty (the default): each heartbeat answered at its source address.")
    private String watchedBy;

    /**
     * Runs {@code ricochet-fd} with {@code args} and exits with its exit code.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, with the one-line reporting of bad input installed. */
    public static CommandLine commandLine() {
        return new CommandLine(new FdMain()).setParameterExceptionHandler(new UsageErrorHandler());
    }

    @Override
    public Integer call() {
        List<List<InetSocketAddress>> partitions = gmsPartitions();
        OptionalInt watchRack = watchRack(partitions);
        FdConfig config = config();
        return FdRunner.run(config, partitions, tls(config, partitions), watchRack, spec.commandLine().getErr());
    }

    /** The rack the GMS lists daemons of (0: standby), from --rack / --standby, or a {@link ParameterException}. */
    private OptionalInt watchRack(List<List<InetSocketAddress>> partitions) {
        if (rack != null && standby) {
            throw invalid("--rack " + rack + " and --standby: choose one (a rack detector takes over racks too; a "
                    + "standby has no rack of its own)");
        }
        if (rack != null && (rack < 1 || rack > MAX_RACK)) {
            throw invalid("--rack " + rack + ": must be in 1.." + MAX_RACK + " (--standby for a detector with no "
                    + "rack of its own)");
        }
        if (rack == null && !standby) {
            return OptionalInt.empty();
        }
        String flag = standby ? "--standby" : "--rack " + rack;
        if (partitions.isEmpty()) {
            throw invalid(flag + " needs --gms: the GMS lists the daemons to watch (or give them with --members "
                    + "instead)");
        }
        return OptionalInt.of(standby ? Watch.STANDBY : rack);
    }

    /** The validated configuration, or a {@link ParameterException} naming the offending flag. */
    private FdConfig config() {
        if (intervalMs < 1 || intervalMs > MAX_INTERVAL_MS) {
            throw invalid("--interval-ms " + intervalMs + ": must be in 1.." + MAX_INTERVAL_MS);
        }
        if (miss < 1 || miss > MAX_MISS) {
            throw invalid("--miss " + miss + ": must be in 1.." + MAX_MISS);
        }
        // The negated test also refuses NaN, which picocli parses.
        if (!(phiThreshold >= 1 && phiThreshold <= MAX_PHI_THRESHOLD)) {
            throw invalid("--phi-threshold " + phiThreshold + ": must be a number in 1..100");
        }
        if (acceptablePauseMs < 0 || acceptablePauseMs > MAX_PAUSE_MS) {
            throw invalid("--acceptable-pause-ms " + acceptablePauseMs + ": must be in 0.." + MAX_PAUSE_MS);
        }
        if (minStdDevMs < 1 || minStdDevMs > MAX_STD_DEV_MS) {
            throw invalid("--min-std-dev-ms " + minStdDevMs + ": must be in 1.." + MAX_STD_DEV_MS);
        }
        if (maxClockSkewMs < 100) {
            throw invalid("--max-clock-skew-ms " + maxClockSkewMs + ": must be at least 100");
        }
        try {
            TargetList targets = new TargetList(id)
                    .add("--members", members)
                    .add("--watch-detectors", watchDetectors)
                    .add("--chain-next", chainNext == null ? List.of() : List.of(chainNext));
            Authentication auth = Authentication.from(keyFile, insecure.isOn(), maxClockSkewMs, "--key-file",
                    "--insecure on");
            return new FdConfig(id, bind, targets.targets(), TimeUnit.MILLISECONDS.toNanos(intervalMs), miss,
                    phiThreshold, TimeUnit.MILLISECONDS.toNanos(acceptablePauseMs),
                    TimeUnit.MILLISECONDS.toNanos(minStdDevMs), auth, metrics.bind(), watchedBy());
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    /** The detectors of --watched-by, or a {@link ParameterException} saying what is wrong. */
    private DetectorAddresses watchedBy() {
        try {
            return DetectorAddresses.parse(watchedBy);
        } catch (IllegalArgumentException e) {
            throw invalid("--watched-by " + watchedBy + ": " + e.getMessage() + "; expected "
                    + DetectorAddresses.SYNTAX);
        }
    }

    /** Per GMS partition its replicas, from --gms (none without it), or a {@link ParameterException}. */
    private List<List<InetSocketAddress>> gmsPartitions() {
        if (gms == null) {
            return List.of();
        }
        try {
            return GmsAddresses.parse(gms, Endpoints::hostPort);
        } catch (IllegalArgumentException e) {
            throw invalid("--gms '" + gms + "': " + e.getMessage());
        }
    }

    /** The TLS of the links to the GMS: needed with --gms unless --insecure; the certificate must be this FD's. */
    private TlsSettings tls(FdConfig config, List<List<InetSocketAddress>> partitions) {
        if (partitions.isEmpty() && !tls.anyGiven()) {
            return TlsSettings.insecure();
        }
        try {
            return tls.settings(insecure.isOn(), "--insecure on", PeerIdentity.Role.DETECTOR, config.id());
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    private ParameterException invalid(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
