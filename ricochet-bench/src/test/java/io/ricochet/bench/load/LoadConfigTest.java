package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.control.tls.TlsSettings;
import io.ricochet.daemon.GsoBatcher;
import io.ricochet.wire.DataFlyweight;
import java.net.InetAddress;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/** The generator's ways of sending: --run is checked, and the report says how frames went out. */
class LoadConfigTest {
    private static LoadConfig config(int run, boolean gso, boolean multicastLoop) throws Exception {
        return config(run, gso, multicastLoop, 1024, Authentication.insecure());
    }

    private static LoadConfig config(int run, boolean gso, boolean multicastLoop, int payload, Authentication auth)
            throws Exception {
        return new LoadConfig(11, "lo", InetAddress.getLoopbackAddress(), 7300, GmsEndpoints.parse("127.0.0.1:7100"),
                GroupList.parse("100..115"), RateSchedule.constant(1000, 1), payload, 1000, 4096, 0, 15, 1 << 20,
                SocketKind.AUTO, run, gso, multicastLoop, 1500, TlsSettings.insecure(), auth);
    }

    /** With the 25-byte trailer, a sealed DATA datagram of the largest payload fills a 1500-byte IP packet. */
    @Test
    void aSealedFrameMustFitTheMtu() throws Exception {
        Authentication auth = Authentication.with(ClusterKeys.generate(new SecureRandom(), 1));
        int largest = 1500 - 28 - 25 - DataFlyweight.DATA_HEADER_LENGTH;
        assertEquals(largest, config(1, false, true, largest, auth).payload());
        IllegalArgumentException over = assertThrows(IllegalArgumentException.class,
                () -> config(1, false, true, largest + 1, auth));
        assertEquals("--payload " + (largest + 1) + ": must be at most " + largest + " with --mtu 1500 and the 25-byte "
                + "authentication trailer: a frame and its trailer fit one IP packet, as a daemon's do",
                over.getMessage());
        assertEquals(largest + 25, config(1, false, true, largest + 25, Authentication.insecure()).payload(),
                "unauthenticated, the frame has the trailer's room too");
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
