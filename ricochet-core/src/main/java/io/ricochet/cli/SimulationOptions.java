package io.ricochet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.nak.NakSettings;
import io.ricochet.pbcast.Neighbourhood;
import io.ricochet.pbcast.PbcastConfig;
import io.ricochet.pbcast.PbcastProtocol;
import io.ricochet.pbcast.PbcastVariant;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.protocols.ProtocolTuning;
import io.ricochet.qsm.QsmConfig;
import io.ricochet.region.RegionPlanner;
import io.ricochet.setting.Setting;
import io.ricochet.sim.Perturbation;
import io.ricochet.sim.SimConfig;
import io.ricochet.sim.Workload;
import io.ricochet.srm.SrmConfig;
import io.ricochet.support.OnOff;
import io.ricochet.workload.WorkloadJson;
import io.ricochet.workload.WorkloadPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The flags that describe one simulation run, with the defaults of the paper's evaluation (section 5), and their
 * translation into a {@link SimConfig}. A picocli mixin, so other commands (the bench) can take the same flags. The
 * flags of the settings it shares with the daemon ({@link #SHARED}) take their defaults and descriptions from those
 * settings' declarations.
 */
@Command(defaultValueProvider = SimulationOptions.Defaults.class, resourceBundle = SimulationOptionDocs.NAME)
public final class SimulationOptions {

    private static final long NS_PER_MS = 1_000_000L;
    private static final long NS_PER_US = 1_000L;
    /** Longest accepted time setting: one hour. */
    private static final double MAX_NS = 3_600e9;
    /**
     * The settings the simulator shares with the daemon: each is the flag {@code --NAME} with the declaration's
     * default ({@link Defaults}).
     */
    static final Map<String, Setting> SHARED = shared(RicochetConfig.R, RicochetConfig.C, RicochetConfig.STAGGER,
            NakSettings.NAK, RicochetConfig.FOUNTAIN_BACKUP, RicochetConfig.PAYLOAD, NakSettings.NAK_TIMEOUT,
            NakSettings.NAK_RETRY, NakSettings.NAK_MAX_ATTEMPTS, RicochetConfig.SESSION_DELAY,
            RicochetConfig.DATA_CACHE, RicochetConfig.REPAIR_BUFFER);
    /**
     * The flags described by their settings' declarations: the shared ones but --payload, and SRM's and QSM's, which
     * have no default here (unset, the protocol's own applies; set, they apply to that protocol only).
     */
    static final List<Setting> DESCRIBED = List.of(RicochetConfig.R, RicochetConfig.C, RicochetConfig.STAGGER,
            NakSettings.NAK, RicochetConfig.FOUNTAIN_BACKUP, NakSettings.NAK_TIMEOUT, NakSettings.NAK_RETRY,
            NakSettings.NAK_MAX_ATTEMPTS, RicochetConfig.SESSION_DELAY, RicochetConfig.DATA_CACHE,
            RicochetConfig.REPAIR_BUFFER, SrmConfig.SESSION_INTERVAL, QsmConfig.TOKEN_INTERVAL,
            QsmConfig.PARTITION_SIZE);
    /** RicochetConfig messages read "key = value: rule"; a key of {@link #SHARED} is set straight from its flag. */
    private static final Pattern ENGINE_MESSAGE = Pattern.compile("([a-z-]+) = (.*?): (.*)", Pattern.DOTALL);

    @Option(names = "--protocol", paramLabel = "NAME", defaultValue = "ricochet",
            converter = ValueConverters.Protocol.class,
            description = "Protocol every node runs: ricochet (LEC + NAK), srm (SRM-style NAK with session "
                    + "messages), fec (sender-based FEC with --r/--c, NAK fallback with --nak), pbcast "
                    + "(Bimodal Multicast gossip), ipmc (plain IP multicast, no recovery) or qsm (QuickSilver "
                    + "token-ring recovery from ring peers) "
                    + "(default: ${DEFAULT-VALUE}).")
    private ProtocolChoice protocol;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "64",
            description = "Nodes n in the simulated cluster (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--degree", paramLabel = "D", defaultValue = "128",
            description = "Degree d: groups each node belongs to (default: ${DEFAULT-VALUE}).")
    private int degree;

    @Option(names = "--group-size", paramLabel = "S", defaultValue = "10",
            description = "Group size s: mean members per group; n*d/s groups are formed "
                    + "(default: ${DEFAULT-VALUE}).")
    private int groupSize;

    @Option(names = "--plan", paramLabel = "FILE",
            description = "Take the groups from FILE, a plan as 'ricochet workload --make-plan' writes it (e.g. a "
                    + "real cluster run's plan.json), instead of the seeded random grouping; it must hold --nodes "
                    + "nodes, each in --degree of n*d/s groups (default: random grouping).")
    private Path plan;

    @Option(names = "--r", paramLabel = "R")
    private int r;

    @Option(names = "--c", paramLabel = "C")
    private double c;

    @Option(names = "--stagger", paramLabel = "K")
    private int stagger;

    @Option(names = "--loss", paramLabel = "MODEL", defaultValue = "uniform:0.01",
            converter = ValueConverters.Loss.class,
            description = "Loss model at every receiver: none, uniform:L (independent, rate L), bursty:L:b (rate L in "
                    + "bursts of exactly b), markov:L:m (Gilbert model, rate L, mean burst m) "
                    + "(default: ${DEFAULT-VALUE}).")
    private LossSpec loss;

    @Option(names = "--loss-scope", paramLabel = "SCOPE", defaultValue = "data",
            converter = ValueConverters.Scope.class,
            description = "Packets the loss model applies to: data (data packets only, as in the paper) or all "
                    + "(repairs, NAKs and retransmissions too) (default: ${DEFAULT-VALUE}).")
    private LossScope lossScope;

    @Option(names = "--seconds", paramLabel = "SEC", defaultValue = "30",
            description = "Simulated seconds of measured traffic (default: ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--drain-seconds", paramLabel = "SEC", defaultValue = "1",
            description = "Unmeasured traffic after the measured part, so the last measured packets get repairs "
                    + "(default: ${DEFAULT-VALUE}).")
    private double drainSeconds;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1",
            description = "Seed of every random choice; the same flags and seed give the same results "
                    + "(default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--nak", paramLabel = "on|off", arity = "1",
            converter = OnOff.Converter.class)
    private OnOff nak;

    @Option(names = "--fountain-backup", paramLabel = "on|off", arity = "1",
            converter = OnOff.Converter.class)
    private OnOff fountainBackup;

    @Option(names = "--rate-of-fire-tuning", paramLabel = "off|on|MIN..MAX", defaultValue = "off",
            description = "With --protocol ricochet: tune each group's c from the losses each node sees, within "
                    + "MIN..MAX (on: 2..10), or keep --c (off) (default: ${DEFAULT-VALUE}).")
    private String rateOfFireTuning;

    @Option(names = "--rate-per-node", paramLabel = "PPS", defaultValue = "1000",
            description = "Data packets per second arriving at each node (default: ${DEFAULT-VALUE}).")
    private double ratePerNode;

    @Option(names = "--payload", paramLabel = "BYTES",
            description = "Payload bytes of every data packet (default: ${DEFAULT-VALUE}).")
    private int payload;

    @Option(names = "--latency-us", paramLabel = "US", defaultValue = "50",
            description = "One-hop network latency in microseconds (default: ${DEFAULT-VALUE}).")
    private double latencyUs;

    @Option(names = "--nak-timeout-ms", paramLabel = "MS")
    private double nakTimeoutMs;

    @Option(names = "--nak-retry-ms", paramLabel = "MS")
    private double nakRetryMs;

    @Option(names = "--nak-max-attempts", paramLabel = "N")
    private int nakMaxAttempts;

    @Option(names = "--session-delay-ms", paramLabel = "MS")
    private double sessionDelayMs;

    // Described by their declarations (DESCRIBED); unset, SRM's and QSM's defaults, which are the declarations' too.
    @Option(names = "--srm-session-interval-ms", paramLabel = "MS")
    private Double srmSessionIntervalMs;

    @Option(names = "--qsm-token-interval-ms", paramLabel = "MS")
    private Double qsmTokenIntervalMs;

    @Option(names = "--qsm-partition-size", paramLabel = "N")
    private Integer qsmPartitionSize;

    @Option(names = "--regions", paramLabel = "MIN_SIZE",
            description = "Give the nodes the GMS's regions of their groups, planned as 'ricochet-gms --regions "
                    + "--min-region-size MIN_SIZE' would (QSM's regions, docs/design/regions.md): with --protocol "
                    + "qsm no partition spans two regions; the other protocols ignore them (default: no regions).")
    private Integer regionMinSize;

    @Option(names = "--data-cache", paramLabel = "PACKETS")
    private int dataCache;

    @Option(names = "--repair-buffer", paramLabel = "REPAIRS")
    private int repairBuffer;

    @Option(names = "--pbcast-variant", paramLabel = "NAME", converter = ValueConverters.PbcastVariantName.class,
            description = "With --protocol pbcast: basic, ipmc (Pbcast-ipmc: multicast a retransmission asked for "
                    + "twice), grb (Pbcast-ipmc plus gossip retransmit bits) or local (Pbcast-grb plus info / mcast "
                    + "through a neighbour), the Bimodal Multicast study's section 4; not --protocol ipmc, which is "
                    + "plain IP multicast (default: basic).")
    private PbcastVariant pbcastVariant;

    @Option(names = "--pbcast-zone-size", paramLabel = "N",
            description = "With --pbcast-variant local: node indexes 0..N-1 are one zone of neighbours, N..2N-1 the "
                    + "next, and so on (default: one zone, every member is a neighbour).")
    private Integer pbcastZoneSize;

    @Option(names = "--perturb", paramLabel = "NODE:FRACTION[:PERIOD_MS]",
            description = "Node index NODE sleeps for the last FRACTION (0 <= FRACTION < 1) of every PERIOD_MS "
                    + "(default 1000): it then neither receives, sends nor runs timers, and frames arriving wait in "
                    + "its socket buffer (--perturb-backlog) for its waking (default: no perturbation).")
    private String perturb;

    @Option(names = "--perturb-backlog", paramLabel = "FRAMES", defaultValue = "200",
            description = "With --perturb: frames the sleeping node's socket buffer holds; more are dropped "
                    + "(default: ${DEFAULT-VALUE}, about a 208 KiB buffer of 1 KB datagrams).")
    private int perturbBacklog;

    private static Map<String, Setting> shared(Setting... settings) {
        Map<String, Setting> byName = new LinkedHashMap<>();
        for (Setting s : settings) {
            byName.put(s.name(), s);
        }
        return java.util.Collections.unmodifiableMap(byName);
    }

    /** The default of each flag of {@link #SHARED}: its declaration's. */
    public static final class Defaults implements IDefaultValueProvider {
        @Override
        public String defaultValue(ArgSpec argSpec) {
            if (argSpec instanceof OptionSpec option && option.longestName().startsWith("--")) {
                Setting setting = SHARED.get(option.longestName().substring(2));
                return setting == null ? null : setting.defaultText();
            }
            return null;
        }
    }

    /**
     * The region planner of --regions, or null without it.
     *
     * @throws IllegalArgumentException naming the flag and what is wrong
     */
    public RegionPlanner regionPlanner() {
        if (regionMinSize == null) {
            return null;
        }
        if (regionMinSize < 1 || regionMinSize > RegionPlanner.MAX_MIN_REGION_SIZE) {
            throw new IllegalArgumentException("--regions " + regionMinSize + ": the minimum region size must be in 1.."
                    + RegionPlanner.MAX_MIN_REGION_SIZE);
        }
        return new RegionPlanner(regionMinSize);
    }

    /**
     * The perturbation of --perturb, or null without it.
     *
     * @throws IllegalArgumentException naming the flag and what is wrong
     */
    public Perturbation perturbation() {
        if (perturb == null) {
            return null;
        }
        Perturbation p = Perturbation.parse(perturb, perturbBacklog);
        if (p.node() < 0 || p.node() >= nodes) {
            throw new IllegalArgumentException("--perturb " + perturb + ": NODE must be a node index in 0.."
                    + (nodes - 1) + " (--nodes " + nodes + ")");
        }
        return p;
    }

    /**
     * The run these flags describe.
     *
     * @return the validated configuration
     * @throws IllegalArgumentException naming the offending flag and value
     */
    public SimConfig toSimConfig() {
        RicochetConfig engine = engineConfig();
        long latencyNs = nanos("--latency-us", latencyUs, NS_PER_US, true);
        ProtocolTuning tuning = new ProtocolTuning(srmSessionIntervalNs(), qsmTokenIntervalNs(), qsmPartitionSize(),
                null);
        if (fountainBackup.isOn() && protocol != ProtocolChoice.RICOCHET) {
            throw new IllegalArgumentException("--fountain-backup on: applies to --protocol ricochet only, not "
                    + protocol.cliName());
        }
        ProtocolFactory factory;
        try {
            factory = pbcastVariant() != null ? new PbcastProtocol(pbcastConfig())
                    : protocol.factory(engine, payload, tuning);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--protocol " + protocol.cliName() + ": " + e.getMessage(), e);
        }
        return new SimConfig(nodes, degree, groupSize, factory, loss, lossScope, seconds, drainSeconds,
                ratePerNode, payload, latencyNs, seed, membership());
    }

    /** The --pbcast-variant, checked against --protocol; null if not given. */
    private PbcastVariant pbcastVariant() {
        if (pbcastZoneSize != null && pbcastVariant != PbcastVariant.LOCAL) {
            throw new IllegalArgumentException("--pbcast-zone-size: applies to --pbcast-variant local only");
        }
        if (pbcastVariant != null && protocol != ProtocolChoice.PBCAST) {
            throw new IllegalArgumentException("--pbcast-variant " + pbcastVariant.cliName() + ": applies to "
                    + "--protocol pbcast only, not " + protocol.cliName()
                    + (protocol == ProtocolChoice.IPMC ? " (plain IP multicast has no variants)" : ""));
        }
        return pbcastVariant;
    }

    /** Basic pbcast's settings (as --protocol pbcast alone has them) with the variant's switches. */
    private PbcastConfig pbcastConfig() {
        PbcastConfig.Builder builder = pbcastVariant.apply(PbcastConfig.builder().maxPayload(payload));
        if (pbcastZoneSize != null) {
            if (pbcastZoneSize < 1 || pbcastZoneSize > nodes) {
                throw new IllegalArgumentException("--pbcast-zone-size " + pbcastZoneSize + ": must be in 1..--nodes ("
                        + nodes + ")");
            }
            builder.neighbourhood(Neighbourhood.racks(pbcastZoneSize));
        }
        return builder.build();
    }

    /** The SRM session interval of --srm-session-interval-ms, or null for SRM's default. */
    private Long srmSessionIntervalNs() {
        if (srmSessionIntervalMs == null) {
            return null;
        }
        if (protocol != ProtocolChoice.SRM) {
            throw new IllegalArgumentException("--srm-session-interval-ms: applies to --protocol srm only, not "
                    + protocol.cliName());
        }
        return nanos("--srm-session-interval-ms", srmSessionIntervalMs, NS_PER_MS, true);
    }

    /** The QSM token hold of --qsm-token-interval-ms, or null for QSM's default. */
    private Long qsmTokenIntervalNs() {
        if (qsmTokenIntervalMs == null) {
            return null;
        }
        if (protocol != ProtocolChoice.QSM) {
            throw new IllegalArgumentException("--qsm-token-interval-ms: applies to --protocol qsm only, not "
                    + protocol.cliName());
        }
        try {
            return QsmConfig.tokenIntervalNsOfMs(qsmTokenIntervalMs);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--qsm-token-interval-ms " + Decimals.plain(qsmTokenIntervalMs) + ": "
                    + e.getMessage(), e);
        }
    }

    /** The QSM partition size of --qsm-partition-size, or null for QSM's default. */
    private Integer qsmPartitionSize() {
        if (qsmPartitionSize == null) {
            return null;
        }
        if (protocol != ProtocolChoice.QSM) {
            throw new IllegalArgumentException("--qsm-partition-size: applies to --protocol qsm only, not "
                    + protocol.cliName());
        }
        if (!QsmConfig.PARTITION_SIZE.allows(qsmPartitionSize)) {
            throw new IllegalArgumentException("--qsm-partition-size " + qsmPartitionSize + ": must be in "
                    + QsmConfig.PARTITION_SIZE.rangeText() + " members (a value at least the group size keeps one flat "
                    + "ring)");
        }
        return qsmPartitionSize;
    }

    /**
     * The groups of --plan as node index to group indices: the plan's nodes in ascending id order, its groups
     * 1..g as 0..g-1. Null without --plan.
     */
    private List<List<Integer>> membership() {
        if (plan == null) {
            return null;
        }
        JsonNode json;
        try {
            json = WorkloadJson.read(plan);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--plan " + e.getMessage(), e);   // the message starts with the file
        }
        WorkloadPlan read;
        try {
            read = WorkloadPlan.fromJson(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--plan " + plan + ": not a workload plan: " + e.getMessage(), e);
        }
        int groups = Workload.groupCount(nodes, degree, groupSize);
        if (read.totalGroups() != groups) {
            throw new IllegalArgumentException("--plan " + plan + ": has " + read.totalGroups() + " groups, but n*d/s"
                    + " = " + nodes + "*" + degree + "/" + groupSize + " gives " + groups);
        }
        List<List<Integer>> out = new ArrayList<>();
        read.groupsOf().values().forEach(own -> out.add(own.stream().map(g -> g - 1).toList()));
        return out;
    }

    private RicochetConfig engineConfig() {
        RicochetConfig.Builder builder = RicochetConfig.builder()
                .r(r)
                .c(c)
                .stagger(stagger)
                .nakEnabled(nak.isOn())
                .nakTimeoutNs(nanos("--nak-timeout-ms", nakTimeoutMs, NS_PER_MS, false))
                .nakRetryNs(nanos("--nak-retry-ms", nakRetryMs, NS_PER_MS, false))
                .nakMaxAttempts(nakMaxAttempts)
                .sessionDelayNs(nanos("--session-delay-ms", sessionDelayMs, NS_PER_MS, true))
                .maxPayload(payload)
                .dataCacheCapacity(dataCache)
                .repairBufferCapacity(repairBuffer)
                .fountainBackup(fountainBackup.isOn());
        try {
            builder.tuning(TuningSettings.parse(rateOfFireTuning));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--rate-of-fire-tuning " + rateOfFireTuning + ": " + e.getMessage(), e);
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(withFlagName(e.getMessage()), e);
        }
    }

    /** Rewrites "payload = 5000: rule" as "--payload 5000: rule"; other messages are kept as they are. */
    private static String withFlagName(String message) {
        Matcher m = ENGINE_MESSAGE.matcher(message == null ? "" : message);
        if (m.matches() && SHARED.containsKey(m.group(1))) {
            return "--" + m.group(1) + " " + m.group(2) + ": " + m.group(3);
        }
        return message;
    }

    /** {@code amount} units of {@code nsPerUnit} nanoseconds, refused unless a finite, in-range number. */
    private static long nanos(String flag, double amount, long nsPerUnit, boolean zeroAllowed) {
        double ns = amount * nsPerUnit;
        boolean ok = zeroAllowed ? ns >= 0 : ns > 0;
        if (!ok || !(ns <= MAX_NS)) {
            throw new IllegalArgumentException(flag + " " + Decimals.plain(amount) + ": must be "
                    + (zeroAllowed ? "0 or more" : "positive") + " and at most " + Decimals.plain(MAX_NS / nsPerUnit));
        }
        return Math.round(ns);
    }
}
