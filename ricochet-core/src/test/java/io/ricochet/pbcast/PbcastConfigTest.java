package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.engine.RecordingOutbox;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The paper's defaults, the validation of every setting, and the protocol factory. */
class PbcastConfigTest {
    @Test
    void shouldDefaultToThePapersBasicProtocol() {
        PbcastConfig c = PbcastConfig.builder().build();
        assertEquals(100_000_000L, c.roundNs());
        assertEquals(1, c.fanout());
        assertEquals(10, c.stableThreshold());
        assertEquals(2, c.ipmcThreshold());
        assertEquals(32, c.limitRequests());
        assertEquals(32, c.limitRetrans());
        assertFalse(c.ipmc() || c.grb() || c.local());
        assertEquals(Neighbourhood.flat(), c.neighbourhood());
        assertEquals(1024, c.maxPayload());
    }

    @Test
    void shouldRefuseOutOfRangeSettingsNamingThem() {
        assertRefused("step-interval", b -> b.roundNs(0));
        assertRefused("sub-gsize", b -> b.fanout(0));
        assertRefused("sub-gsize", b -> b.fanout(65));
        assertRefused("limit-requests", b -> b.limitRequests(0));
        assertRefused("limit-retrans", b -> b.limitRetrans(0));
        assertRefused("stable-threshold", b -> b.stableThreshold(0));
        assertRefused("ipmc-threshold", b -> b.ipmcThreshold(0));
        assertRefused("payload", b -> b.maxPayload(1445));
        assertRefused("buffer-capacity", b -> b.bufferCapacity(0));
        assertRefused("stream-window", b -> b.streamWindow(63));
        assertThrows(NullPointerException.class, () -> PbcastConfig.builder().neighbourhood(null).build());
        assertThrows(IllegalArgumentException.class, () -> Neighbourhood.racks(0));
    }

    private static void assertRefused(String name, UnaryOperator<PbcastConfig.Builder> change) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> change.apply(PbcastConfig.builder()).build());
        assertTrue(e.getMessage().startsWith(name + " = "), e.getMessage());
    }

    @Test
    void shouldBuildPbcastEnginesUnderItsName() {
        PbcastConfig c = PbcastConfig.builder().ipmc(true).maxPayload(512).neighbourhood(Neighbourhood.racks(8))
                .build();
        ProtocolFactory protocol = new PbcastProtocol(c);
        assertEquals("pbcast", protocol.name());
        assertEquals(512, protocol.maxPayload());
        assertEquals(true, protocol.parameters().get("ipmc"));
        assertEquals(100.0, protocol.parameters().get("stepIntervalMs"));
        assertEquals("racks:8", protocol.parameters().get("neighbourhood"));
        ProtocolEngine engine = protocol.create(7, new SplittableRandom(1), new RecordingOutbox());
        assertEquals(7, engine.nodeId());
        assertTrue(engine instanceof PbcastEngine);
        assertEquals(Long.MAX_VALUE, engine.nextDeadlineNs());
    }

    @Test
    void shouldGroupNodesIntoRacks() {
        Neighbourhood racks = Neighbourhood.racks(4);
        assertEquals(0, racks.zoneOf(3));
        assertEquals(1, racks.zoneOf(4));
        assertEquals(Neighbourhood.flat().zoneOf(0), Neighbourhood.flat().zoneOf(1_000));
    }
}
