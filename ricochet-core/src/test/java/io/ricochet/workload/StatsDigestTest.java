package io.ricochet.workload;

import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lec.LecCounter;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class StatsDigestTest {
    @Test
    void shouldNameTheCountersAsTheDaemonsStatsDo() {
        // The workload reads counters by name from a daemon's stats; renaming one of these breaks its summary.
        assertEquals(LecCounter.RECOVERED_BY_XOR.name(), StatsDigest.RECOVERED_BY_LEC);
        assertEquals(EngineCounter.RECOVERED_BY_NAK.name(), StatsDigest.RECOVERED_BY_NAK);
        assertEquals(EngineCounter.UNRECOVERED.name(), StatsDigest.UNRECOVERED);
        assertEquals(DaemonCounter.RX_BUFFER_RANDOM_DROPS.name(), StatsDigest.RX_BUFFER_DROPS);
        assertEquals(DaemonCounter.INJECTED_DROPS.name(), StatsDigest.INJECTED_DROPS);
    }
}
