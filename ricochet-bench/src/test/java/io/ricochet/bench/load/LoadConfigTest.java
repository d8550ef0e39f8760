package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.control.tls.TlsSettings;
import io.ricochet.daemon.GsoBatcher;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The generator's ways of sending: --run is checked, and the report says how frames went out. */
class LoadConfigTest {
    private static LoadConfig config(int run, boolean gso, boolean multicastLoop) throws Exception {
        return new LoadConfig(11, "lo", InetAddress.getLoopbackAddress(), 7300, GmsEndpoints.parse("127.0.0.1:7100"),
                GroupList.parse("100..115"), RateSchedule.constant(1000, 1), 1024, 1000, 4096, 0, 15, 1 << 20,
                Transport.AUTO, run, gso, multicastLoop, TlsSettings.insecure());
    }

    @Test
    void theReportSaysHowFramesWentOut() throws Exception {
        assertEquals("round-robin", config(1, false, true).sending());
        assertEquals("runs of 16 frames per group, GSO, multicast not looped back",
                config(16, true, false).sending());
    }

    @Test
    void aRunMustFitOneGsoSend() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> config(0, false, true));
        assertEquals("--run 0: must be in 1.." + GsoBatcher.MAX_SEGMENTS, zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> config(GsoBatcher.MAX_SEGMENTS + 1, true, true));
    }
}
