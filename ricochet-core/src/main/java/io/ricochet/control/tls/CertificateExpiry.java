package io.ricochet.control.tls;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.ricochet.metrics.Readings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long this process's own TLS certificate has left, said before it runs out: a certificate that expires locks
 * the process out of every control link at its next reconnection (and, as certificates are made together, often
 * every process at once after a failover). {@link #check} logs a WARN within {@link #WARN_DAYS} days of the
 * expiry and an ERROR within {@link #URGENT_DAYS}; each process checks at start and then daily
 * ({@link #checkDaily}). As a metric, the gauge {@code ricochet_tls_certificate_days_left} (fractional days,
 * negative once expired). The clock is injected so that tests move it.
 */
public final class CertificateExpiry implements MultiCollector {
    /** A WARN within this many days of the expiry. */
    public static final long WARN_DAYS = 30;
    /** An ERROR within this many days of the expiry (and after it). */
    public static final long URGENT_DAYS = 1;
    /** The gauge's name. */
    public static final String GAUGE = "ricochet_tls_certificate_days_left";

    /** What {@link #check} found. */
    public enum Level {
        /** More than {@link #WARN_DAYS} days left: nothing logged. */
        OK,
        /** Within {@link #WARN_DAYS} days: WARN. */
        WARN,
        /** Within {@link #URGENT_DAYS} days, or expired: ERROR. */
        URGENT
    }

    private static final Logger LOG = LoggerFactory.getLogger(CertificateExpiry.class);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);
    private static final double SECONDS_PER_DAY = 86_400.0;

    private final String who;
    private final Instant notAfter;
    private final Clock clock;

    /**
     * @param who      the process and the option that gave the certificate, for the log (e.g. {@code node 3's
     *                 certificate (tls-cert)})
     * @param notAfter the certificate's last valid instant
     */
    public CertificateExpiry(String who, Instant notAfter, Clock clock) {
        this.who = who;
        this.notAfter = notAfter;
        this.clock = clock;
    }

    /** The expiry of {@code tls}'s own certificate, or null when insecure. */
    public static CertificateExpiry of(TlsSettings tls, String who, Clock clock) {
        Instant notAfter = tls.certificateNotAfter();
        return notAfter == null ? null : new CertificateExpiry(who, notAfter, clock);
    }

    /** Days left now, fractional; negative once expired. */
    public double daysLeft() {
        return Duration.between(clock.instant(), notAfter).toMillis() / 1000.0 / SECONDS_PER_DAY;
    }

    /** How close the expiry is now. */
    public Level level() {
        double days = daysLeft();
        return days <= URGENT_DAYS ? Level.URGENT : days <= WARN_DAYS ? Level.WARN : Level.OK;
    }

    /** Logs the expiry if it is near (WARN) or very near or past (ERROR); returns the level. */
    public Level check() {
        Level level = level();
        double days = daysLeft();
        String fix = "make a new certificate (scripts/certs, or your CA) and restart this process with it";
        if (level == Level.URGENT) {
            long hours = Math.round(Math.abs(days) * 24);
            LOG.error("{} {} on {} ({} h {}): {}; once expired, every control link it makes or takes fails", who,
                    days < 0 ? "EXPIRED" : "expires", DAY.format(notAfter), hours, days < 0 ? "ago" : "left", fix);
        } else if (level == Level.WARN) {
            LOG.warn("{} expires on {}, in {} days: {} before then", who, DAY.format(notAfter), (long) days, fix);
        }
        return level;
    }

    /** Checks now, then every day on {@code executor} (a process's event loop). */
    public void checkDaily(ScheduledExecutorService executor) {
        check();
        executor.scheduleAtFixedRate(this::check, 1, 1, TimeUnit.DAYS);
    }

    @Override
    public MetricSnapshots collect() {
        return new Readings().gauge(GAUGE, "days until this process's TLS certificate expires (negative: expired)",
                daysLeft()).build();
    }

    /** {@code main} and, if there is one, {@code expiry}: what a metrics endpoint answers with. */
    public static List<MultiCollector> withExpiry(MultiCollector main, CertificateExpiry expiry) {
        return expiry == null ? List.of(main) : List.of(main, expiry);
    }
}
