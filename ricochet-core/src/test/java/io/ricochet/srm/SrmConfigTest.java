package io.ricochet.srm;

import io.ricochet.engine.RecordingOutbox;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Defaults, validation, and the random timer delays SrmConfig draws. */
class SrmConfigTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldDefaultToSrmsConstantsAndADatacenterDistance() {
        SrmConfig c = SrmConfig.builder().build();
        assertEquals(MS, c.distanceNs());
        assertEquals(2, c.c1());
        assertEquals(2, c.c2());
        assertEquals(1, c.d1());
        assertEquals(1, c.d2());
        assertEquals(3, c.holdDownFactor());
        assertEquals(3 * MS, c.holdDownNs());
        assertEquals(1_000 * MS, c.sessionIntervalNs());
        assertTrue(c.sessionsEnabled());
        assertTrue(c.sessionReportsHeard());
        assertEquals(1024, c.maxPayload());
        assertFalse(SrmConfig.builder().sessionIntervalNs(0).build().sessionsEnabled());
    }

    @Test
    void shouldDrawRequestRepairAndSessionDelaysInTheirRanges() {
        SrmConfig c = SrmConfig.builder().build();
        SplittableRandom rng = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long request = c.requestDelayNs(rng, 0);
            assertTrue(request >= 2 * MS && request <= 4 * MS, "request " + request);
            long third = c.requestDelayNs(rng, 3);
            assertTrue(third >= 16 * MS && third <= 32 * MS, "round 3 " + third);
            long capped = c.requestDelayNs(rng, 40);
            assertTrue(capped >= 128 * MS && capped <= 256 * MS, "capped at 2^6: " + capped);
            long repair = c.repairDelayNs(rng);
            assertTrue(repair >= MS && repair <= 2 * MS, "repair " + repair);
            long session = c.sessionDelayNs(rng);
            assertTrue(session >= 500 * MS && session < 1_500 * MS, "session " + session);
        }
    }

    @Test
    void shouldNeverOverflowTheLargestBackoff() {
        SrmConfig c = SrmConfig.builder().distanceNs(10_000 * MS).requestTimer(500, 500).maxBackoffExponent(20)
                .build();
        long delay = c.requestDelayNs(new SplittableRandom(1), 20);
        assertTrue(delay > 0, "delay " + delay);
    }

    @Test
    void shouldRefuseOutOfRangeValuesNamingTheSetting() {
        assertRefused("distance", SrmConfig.builder().distanceNs(0));
        assertRefused("c1, c2", SrmConfig.builder().requestTimer(0, 0));
        assertRefused("c1, c2", SrmConfig.builder().requestTimer(-1, 2));
        assertRefused("d1, d2", SrmConfig.builder().repairTimer(1, -1));
        assertRefused("payload", SrmConfig.builder().maxPayload(SrmRepairFlyweight.MAX_PAYLOAD + 1));
        assertRefused("max-request-rounds", SrmConfig.builder().maxRequestRounds(0));
        assertRefused("max-backoff-exponent", SrmConfig.builder().maxBackoffExponent(21));
        assertRefused("session-interval", SrmConfig.builder().sessionIntervalNs(-1));
        assertRefused("session-idle-rounds", SrmConfig.builder().sessionIdleRounds(0));
        assertRefused("cache", SrmConfig.builder().cacheCapacity(0));
        assertRefused("send-buffer", SrmConfig.builder().sendBufferCapacity(0));
        assertRefused("max-pending-requests", SrmConfig.builder().maxPendingRequests(0));
        assertRefused("max-pending-repairs", SrmConfig.builder().maxPendingRepairs(0));
        assertRefused("stream-window", SrmConfig.builder().streamWindow(63));
        assertRefused("hold-down", SrmConfig.builder().holdDownFactor(-1));
    }

    @Test
    void shouldDescribeItselfAsTheSrmProtocol() {
        SrmProtocol protocol = new SrmProtocol(SrmConfig.builder().maxPayload(512).build());
        assertEquals("srm", protocol.name());
        assertEquals(512, protocol.maxPayload());
        assertEquals(1000.0, protocol.parameters().get("distanceUs"));
        assertEquals(2.0, protocol.parameters().get("c1"));
        assertEquals(1000.0, protocol.parameters().get("sessionIntervalMs"));
        assertTrue(protocol.create(3, new SplittableRandom(1), new RecordingOutbox()) instanceof SrmEngine);
        assertEquals(3, protocol.create(3, new SplittableRandom(1), new RecordingOutbox()).nodeId());
    }

    private static void assertRefused(String setting, SrmConfig.Builder builder) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
        assertTrue(e.getMessage().startsWith(setting + " = "), e.getMessage());
    }
}
