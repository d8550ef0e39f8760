package io.ricochet.control.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Days left on a process's certificate, and when they are said at WARN and at ERROR, on a clock the test sets. */
class CertificateExpiryTest {
    private static final Instant NOT_AFTER = Instant.parse("2030-06-30T12:00:00Z");

    @TempDir
    Path dir;

    private static CertificateExpiry at(Instant now) {
        return new CertificateExpiry("node 1's certificate", NOT_AFTER, Clock.fixed(now, ZoneOffset.UTC));
    }

    @Test
    void shouldCountTheDaysLeftNegativeOnceExpired() {
        assertEquals(40.0, at(NOT_AFTER.minus(Duration.ofDays(40))).daysLeft(), 1e-9);
        assertEquals(0.5, at(NOT_AFTER.minus(Duration.ofHours(12))).daysLeft(), 1e-9);
        assertEquals(-2.0, at(NOT_AFTER.plus(Duration.ofDays(2))).daysLeft(), 1e-9);
    }

    @Test
    void shouldWarnWithin30DaysAndSayItLouderWithinADayAndAfter() {
        assertEquals(CertificateExpiry.Level.OK, at(NOT_AFTER.minus(Duration.ofDays(31))).check());
        assertEquals(CertificateExpiry.Level.WARN, at(NOT_AFTER.minus(Duration.ofDays(30))).check());
        assertEquals(CertificateExpiry.Level.WARN, at(NOT_AFTER.minus(Duration.ofHours(25))).check());
        assertEquals(CertificateExpiry.Level.URGENT, at(NOT_AFTER.minus(Duration.ofHours(24))).check());
        assertEquals(CertificateExpiry.Level.URGENT, at(NOT_AFTER.plus(Duration.ofDays(3))).check());
    }

    @Test
    void shouldExportTheDaysLeftAsAGauge() {
        List<MetricSnapshot> snapshots = at(NOT_AFTER.minus(Duration.ofDays(10))).collect().stream().toList();
        assertEquals(1, snapshots.size());
        GaugeSnapshot gauge = (GaugeSnapshot) snapshots.get(0);
        assertEquals("ricochet_tls_certificate_days_left", gauge.getMetadata().getPrometheusName());
        assertEquals(10.0, gauge.getDataPoints().get(0).getValue(), 1e-9);
    }

    @Test
    void shouldTakeTheExpiryOfTheProcesssOwnCertificate() throws Exception {
        TestCertificates.make(dir, "daemon:node-1");
        TlsSettings tls = TestCertificates.settings(dir, "node-1");
        Instant notAfter = tls.certificateNotAfter();
        CertificateExpiry expiry = CertificateExpiry.of(tls, "node 1", Clock.fixed(notAfter.minus(Duration.ofDays(5)),
                ZoneOffset.UTC));
        assertEquals(5.0, expiry.daysLeft(), 1e-9);
        assertEquals(CertificateExpiry.Level.WARN, expiry.level());
        assertTrue(notAfter.isAfter(Instant.now()), "a fresh test certificate is valid now");
        assertNull(CertificateExpiry.of(TlsSettings.insecure(), "node 1", Clock.systemUTC()), "insecure: none");
    }
}
