package io.ricochet.gms;

import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.metrics.MetricsBind;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything one GMS replica process needs to run, validated: how many partitions the GMS has and which of them
 * this process hosts, the replicas of those partitions (every hosted partition is a Raft group of all of them) and
 * which one this is, its multicast pool, how often it logs its counters, the TLS of its control connections, the
 * directory its Raft logs and snapshots live in ({@code storage}; null: a fresh temporary directory, deleted on
 * close, for tests and experiments), its Raft settings and where its Prometheus endpoint listens ({@code metrics},
 * off by default), whether groups get QSM regions ({@code regions}, off by default) and the fingerprints of the
 * cluster's datagram keys that a daemon's REGISTER must match ({@code keyFingerprints}; none by default: not
 * checked, see {@link KeyCheck}), and what each partition's listening socket takes ({@code frontDoor}: connection
 * caps, the TLS handshake's timeout, requests in flight per session; {@link FrontDoorSettings#DEFAULT} unless said).
 */
public record GmsConfig(int partitions, List<Integer> hosted, List<Replica> replicas, int self,
                        MulticastPool multicast, int statsIntervalSeconds, TlsSettings tls, Path storage,
                        RaftSettings raft, MetricsBind metrics, RegionSettings regions,
                        List<KeyFingerprint> keyFingerprints, FrontDoorSettings frontDoor) {
    /** The port partition {@code i} listens on by default: {@code DEFAULT_BASE_PORT + i}. */
    public static final int DEFAULT_BASE_PORT = 7100;
    /** The Raft port of a replica, by default. */
    public static final int DEFAULT_RAFT_PORT = 7190;
    /** The default multicast pool base. */
    public static final String DEFAULT_MCAST_BASE = "239.255.0.0";
    /** The default multicast (data) port. */
    public static final int DEFAULT_MCAST_PORT = 9100;
    /** Seconds between two counter lines in the log, by default. */
    public static final int DEFAULT_STATS_INTERVAL_SECONDS = 60;
    /** The most partitions a GMS may have. */
    public static final int MAX_PARTITIONS = 1024;

    /**
     * One replica alone hosting partition {@code partitioning.index()} of {@code partitioning.count()}, served on
     * {@code bind} (port 0: a free one), in plaintext, with its Raft state in a temporary directory.
     */
    public GmsConfig(Partitioning partitioning, InetSocketAddress bind, MulticastPool multicast,
                     int statsIntervalSeconds) {
        this(partitioning, bind, multicast, statsIntervalSeconds, TlsSettings.insecure());
    }

    /** As above, the control connections protected by {@code tls}. */
    public GmsConfig(Partitioning partitioning, InetSocketAddress bind, MulticastPool multicast,
                     int statsIntervalSeconds, TlsSettings tls) {
        this(partitioning.count(), List.of(partitioning.index()),
                List.of(new Replica(1, bind.getAddress(), bind.getPort() == 0 ? 0
                        : bind.getPort() - partitioning.index(), 0)), 1, multicast, statsIntervalSeconds, tls, null,
                RaftSettings.DEFAULT);
    }

    /** As the full form, with the default front door. */
    public GmsConfig(int partitions, List<Integer> hosted, List<Replica> replicas, int self, MulticastPool multicast,
                     int statsIntervalSeconds, TlsSettings tls, Path storage, RaftSettings raft, MetricsBind metrics,
                     RegionSettings regions, List<KeyFingerprint> keyFingerprints) {
        this(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft, metrics,
                regions, keyFingerprints, FrontDoorSettings.DEFAULT);
    }

    /** As the full form, no key fingerprints pinned. */
    public GmsConfig(int partitions, List<Integer> hosted, List<Replica> replicas, int self, MulticastPool multicast,
                     int statsIntervalSeconds, TlsSettings tls, Path storage, RaftSettings raft, MetricsBind metrics,
                     RegionSettings regions) {
        this(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft, metrics,
                regions, List.of());
    }

    /** As the full form, without regions. */
    public GmsConfig(int partitions, List<Integer> hosted, List<Replica> replicas, int self, MulticastPool multicast,
                     int statsIntervalSeconds, TlsSettings tls, Path storage, RaftSettings raft, MetricsBind metrics) {
        this(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft, metrics,
                RegionSettings.OFF);
    }

    /** As the full form, without a metrics endpoint. */
    public GmsConfig(int partitions, List<Integer> hosted, List<Replica> replicas, int self, MulticastPool multicast,
                     int statsIntervalSeconds, TlsSettings tls, Path storage, RaftSettings raft) {
        this(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft, MetricsBind.OFF);
    }

    public GmsConfig {
        Objects.requireNonNull(multicast, "multicast");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(raft, "raft");
        Objects.requireNonNull(regions, "regions");
        Objects.requireNonNull(frontDoor, "frontDoor");
        if (regions.enabled() && regions.pool().base().equals(multicast.base())) {
            throw new IllegalArgumentException("the region pool (--region-mcast-base) must not be the group pool "
                    + "(--mcast-base " + multicast.base().getHostAddress() + "): give regions their own /16");
        }
        keyFingerprints = List.copyOf(keyFingerprints);
        new KeyCheck(keyFingerprints);   // refuses an id pinned twice, with a message that names the option
        hosted = List.copyOf(hosted);
        replicas = List.copyOf(replicas);
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new IllegalArgumentException("partitions must be in 1.." + MAX_PARTITIONS + ", got " + partitions);
        }
        if (hosted.isEmpty()) {
            throw new IllegalArgumentException("a replica must host at least one partition");
        }
        Set<Integer> seen = new HashSet<>();
        for (int p : hosted) {
            if (p < 0 || p >= partitions || !seen.add(p)) {
                throw new IllegalArgumentException("hosted partition " + p + " is not one of 0.." + (partitions - 1)
                        + " or is listed twice");
            }
        }
        Set<Integer> ids = new HashSet<>();
        Set<String> raftAddresses = new HashSet<>();
        for (Replica r : replicas) {
            if (!ids.add(r.id())) {
                throw new IllegalArgumentException("replica id " + r.id() + " is listed twice");
            }
            if (!raftAddresses.add(r.host().getHostAddress() + ":" + r.raftPort())) {
                throw new IllegalArgumentException("replicas share the Raft address " + r.host().getHostAddress()
                        + ":" + r.raftPort() + "; give each its own --replicas RAFTPORT");
            }
            for (int p : hosted) {
                r.controlAddress(p);
            }
            if (replicas.size() > 1 && (r.port() == 0 || r.raftPort() == 0)) {
                throw new IllegalArgumentException("replica " + r + ": with several replicas every port must be "
                        + "fixed (others redirect daemons to it), not 0");
            }
        }
        if (!ids.contains(self)) {
            throw new IllegalArgumentException("this replica (" + self + ") is not in the replica list " + replicas);
        }
        if (statsIntervalSeconds < 1) {
            throw new IllegalArgumentException("stats interval must be at least 1 s, got " + statsIntervalSeconds);
        }
    }

    /** The same configuration with its Prometheus endpoint at {@code bind}. */
    public GmsConfig withMetrics(MetricsBind bind) {
        return new GmsConfig(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft,
                bind, regions, keyFingerprints, frontDoor);
    }

    /** The same configuration with {@code settings} for regions. */
    public GmsConfig withRegions(RegionSettings settings) {
        return new GmsConfig(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft,
                metrics, settings, keyFingerprints, frontDoor);
    }

    /** The same configuration with {@code keys} pinned: a REGISTER must match them ({@link KeyCheck}). */
    public GmsConfig withKeyFingerprints(List<KeyFingerprint> keys) {
        return new GmsConfig(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft,
                metrics, regions, keys, frontDoor);
    }

    /** The same configuration with {@code settings} for its listening sockets and sessions. */
    public GmsConfig withFrontDoor(FrontDoorSettings settings) {
        return new GmsConfig(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage, raft,
                metrics, regions, keyFingerprints, settings);
    }

    /** The same configuration with {@code settings} for Raft. */
    public GmsConfig withRaft(RaftSettings settings) {
        return new GmsConfig(partitions, hosted, replicas, self, multicast, statsIntervalSeconds, tls, storage,
                settings, metrics, regions, keyFingerprints, frontDoor);
    }

    /** This process's replica. */
    public Replica replica() {
        return replicas.stream().filter(r -> r.id() == self).findFirst().orElseThrow();
    }

    /** The replica of id {@code id}, or null if there is none. */
    Replica replica(int id) {
        return replicas.stream().filter(r -> r.id() == id).findFirst().orElse(null);
    }
}
