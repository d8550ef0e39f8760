package io.ricochet.bench.compare;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options every experiment of {@code bench vs-jgroups} shares. */
public final class TrialOptions {
    @Option(names = "--packaging", paramLabel = "P", split = ",", defaultValue = "processes,inprocess",
            converter = PackagingConverter.class,
            description = "processes (one JVM per member), inprocess (all members in one JVM), or both; "
                    + "every trial in fresh JVMs, 512 MB of heap per member (Ricochet's with its daemon unit's "
                    + "ZGC, JGroups' with the JVM's default G1) "
                    + "(default: ${DEFAULT-VALUE})")
    List<Packaging> packagings;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "3",
            description = "seconds of sending before the measured window (default: ${DEFAULT-VALUE})")
    double warmupSeconds;

    @Option(names = "--drain", paramLabel = "S", defaultValue = "3",
            description = "seconds waited after sending for the last recoveries (default: ${DEFAULT-VALUE})")
    double drainSeconds;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "seed of the loss injection on both systems (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--ttl", paramLabel = "T", defaultValue = "1",
            description = "multicast TTL of both systems, 0 or 1 (default: ${DEFAULT-VALUE})")
    int ttl;

    @Option(names = "--base-port", paramLabel = "PORT", defaultValue = "20000",
            description = "first UDP port the trials use; each trial takes " + MemberPlan.PORTS_USED
                    + " from here, four trials in turn (default: ${DEFAULT-VALUE})")
    int basePort;

    @Option(names = "--gms-port", paramLabel = "PORT", defaultValue = "17190",
            description = "TCP port of Ricochet's GMS partition on 127.0.0.1, four trials in turn from here "
                    + "(default: ${DEFAULT-VALUE})")
    int gmsPort;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "runs/vs-jgroups",
            description = "where the JSON, the markdown table and the members' logs go (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--ricochet-set", paramLabel = "KEY=VALUE", mapFallbackValue = "",
            description = "a daemon setting (a config-file key, see 'ricochet daemon --help') for every Ricochet "
                    + "member; repeatable, e.g. --ricochet-set insecure=on. Ricochet runs as the package configures "
                    + "it (every setting at its default, authenticated); any setting given here makes a named "
                    + "variant, listed in the system column of every table")
    Map<String, String> ricochetSettings = new LinkedHashMap<>();

    /**
     * The run's credentials folder: Ricochet's key file and certificates, JGroups' keystore, made fresh by the run
     * ({@link Credentials}).
     */
    String credentials() {
        return out.resolve("credentials").toAbsolutePath().toString();
    }

    /** Trials take ports in turn, so a trial never hears a stray datagram of the one before. */
    static final int PORT_ROTATION = 4;

    int basePort(int trial) {
        return basePort + (trial % PORT_ROTATION) * MemberPlan.PORTS_USED;
    }

    int gmsPort(int trial) {
        return gmsPort + trial % PORT_ROTATION;
    }

    /** Picocli's converter for {@link Packaging}. */
    public static final class PackagingConverter implements picocli.CommandLine.ITypeConverter<Packaging> {
        @Override
        public Packaging convert(String value) {
            return Packaging.parse(value);
        }
    }

    /** Picocli's converter for {@link Link}. */
    public static final class LinkConverter implements picocli.CommandLine.ITypeConverter<Link> {
        @Override
        public Link convert(String value) {
            return Link.parse(value);
        }
    }

    /** Picocli's converter for {@link SystemKind}. */
    public static final class SystemConverter implements picocli.CommandLine.ITypeConverter<SystemKind> {
        @Override
        public SystemKind convert(String value) {
            return SystemKind.parse(value);
        }
    }
}
