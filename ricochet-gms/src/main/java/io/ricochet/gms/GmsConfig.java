package io.ricochet.gms;

import io.ricochet.control.Partitioning;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Everything one GMS partition needs to run, validated: which partition of how many it is, where it listens, its
 * multicast pool, how often it logs its counters, and the TLS of its connections (mutual TLS with roles, or
 * plaintext when insecure).
 */
public record GmsConfig(Partitioning partitioning, InetSocketAddress bind, MulticastPool multicast,
                        int statsIntervalSeconds, TlsSettings tls) {
    /** The port partition {@code i} listens on by default: {@code DEFAULT_BASE_PORT + i}. */
    public static final int DEFAULT_BASE_PORT = 7100;
    /** The default multicast pool base. */
    public static final String DEFAULT_MCAST_BASE = "239.255.0.0";
    /** The default multicast (data) port. */
    public static final int DEFAULT_MCAST_PORT = 9100;
    /** Seconds between two counter lines in the log, by default. */
    public static final int DEFAULT_STATS_INTERVAL_SECONDS = 60;

    /** A partition with plaintext connections and no role checks (tests of everything but TLS). */
    public GmsConfig(Partitioning partitioning, InetSocketAddress bind, MulticastPool multicast,
                     int statsIntervalSeconds) {
        this(partitioning, bind, multicast, statsIntervalSeconds, TlsSettings.insecure());
    }

    public GmsConfig {
        Objects.requireNonNull(partitioning, "partitioning");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(multicast, "multicast");
        if (bind.isUnresolved()) {
            throw new IllegalArgumentException("bind address " + bind + " is not an IP address");
        }
        if (statsIntervalSeconds < 1) {
            throw new IllegalArgumentException("stats interval must be at least 1 s, got " + statsIntervalSeconds);
        }
    }
}
