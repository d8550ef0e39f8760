package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.ProtocolFactory;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FecConfigTest {
    @Test
    void shouldDefaultToThePapersRateOfFire() {
        FecConfig config = FecConfig.builder().build();
        assertEquals(8, config.r());
        assertEquals(5, config.c());
        assertEquals(50_000_000L, config.flushTimeoutNs());
        assertTrue(config.nakSettings().nakEnabled());
        assertEquals(100_000_000L, config.nakSettings().nakTimeoutNs());
        assertEquals(50_000_000L, config.nakSettings().retryNs());
        assertEquals(1024, config.maxPayload());
    }

    private static String refusal(FecConfig.Builder builder) {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void shouldRefuseOutOfRangeValuesNamingTheSetting() {
        assertTrue(refusal(FecConfig.builder().r(0)).startsWith("r = 0"));
        assertTrue(refusal(FecConfig.builder().r(65)).startsWith("r = 65"));
        assertTrue(refusal(FecConfig.builder().c(0)).startsWith("c = 0"));
        assertTrue(refusal(FecConfig.builder().c(33)).startsWith("c = 33"));
        assertTrue(refusal(FecConfig.builder().flushTimeoutNs(0)).startsWith("flush-timeout"));
        assertTrue(refusal(FecConfig.builder().maxPayload(1427)).contains("fits one 1500-byte-MTU datagram"));
        assertTrue(refusal(FecConfig.builder().dataCacheCapacity(7)).startsWith("data-cache"));
        assertTrue(refusal(FecConfig.builder().nakEnabled(false).flushTimeoutNs(600_000_000L))
                .contains("must exceed flush-timeout"));
        assertEquals(1426, FecConfig.builder().maxPayload(1426).build().maxPayload(), "30 + 2 * 8 + 1426 = 1472");
    }

    @Test
    void shouldFitTheLargestRepairInOneDatagram() {
        for (int r = 1; r <= FecRepairFlyweight.MAX_R; r++) {
            int largest = HeaderFlyweight.STANDARD_FRAME_LENGTH - FecRepairFlyweight.frameLength(r, 0);
            int payload = Math.min(largest, DataFlyweight.STANDARD_MAX_PAYLOAD);
            FecConfig config = FecConfig.builder().r(r).maxPayload(payload).build();
            assertTrue(FecRepairFlyweight.frameLength(r, config.maxPayload())
                    <= HeaderFlyweight.STANDARD_FRAME_LENGTH);
        }
    }

    @Test
    void shouldBuildFecEnginesUnderTheNameFec() {
        FecConfig config = FecConfig.builder().c(2).nakEnabled(false).build();
        ProtocolFactory protocol = new FecProtocol(config);
        assertEquals("fec", protocol.name());
        assertEquals(1024, protocol.maxPayload());
        assertEquals(8, protocol.parameters().get("r"));
        assertEquals(2, protocol.parameters().get("c"));
        assertEquals(false, protocol.parameters().get("nak"));
        assertInstanceOf(FecEngine.class, protocol.create(3, new SplittableRandom(1), new RecordingOutbox()));
        assertEquals(3, protocol.create(3, new SplittableRandom(1), new RecordingOutbox()).nodeId());
    }

    @Test
    void shouldNumberTheFecCountersFrom120() {
        FecCounter[] fec = FecCounter.values();
        assertTrue(fec.length >= 10);
        for (FecCounter counter : fec) {
            assertTrue(counter.id() >= 120 && counter.id() <= 139, counter + " = " + counter.id());
        }
        assertEquals(fec.length, Arrays.stream(fec).mapToInt(FecCounter::id).distinct().count());
    }
}
