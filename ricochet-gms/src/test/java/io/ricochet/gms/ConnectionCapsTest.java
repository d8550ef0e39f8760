package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.gms.ConnectionCaps.Verdict;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** The caps of one listening socket, without a network: per address, in all, a peer on the GMS's host, release. */
class ConnectionCapsTest {
    private static final InetAddress A = address(10, 0, 0, 1);
    private static final InetAddress B = address(10, 0, 0, 2);
    private static final InetAddress C = address(10, 0, 0, 3);
    private static final InetAddress HOST = address(10, 0, 0, 9);

    @Test
    void shouldAdmitUpToTheCapPerAddressThenRefuseThatAddressOnly() {
        ConnectionCaps caps = new ConnectionCaps(10, 2);
        assertEquals(Verdict.ADMITTED, caps.admit(A, false));
        assertEquals(Verdict.ADMITTED, caps.admit(A, false));
        assertEquals(Verdict.OVER_PER_ADDRESS, caps.admit(A, false));
        assertEquals(Verdict.ADMITTED, caps.admit(B, false));
        assertEquals(2, caps.from(A));
        assertEquals(3, caps.total(), "a refused connection holds no place");
    }

    @Test
    void shouldRefuseEveryoneOverTheTotalIncludingTheGmsHost() {
        ConnectionCaps caps = new ConnectionCaps(3, 2);
        assertEquals(Verdict.ADMITTED, caps.admit(A, false));
        assertEquals(Verdict.ADMITTED, caps.admit(B, false));
        assertEquals(Verdict.ADMITTED, caps.admit(HOST, true));
        assertEquals(Verdict.OVER_TOTAL, caps.admit(C, false));
        assertEquals(Verdict.OVER_TOTAL, caps.admit(HOST, true));
    }

    @Test
    void shouldHoldAPeerOnTheGmsHostToTheTotalOnly() {
        ConnectionCaps caps = new ConnectionCaps(5, 2);
        for (int i = 0; i < 5; i++) {
            assertEquals(Verdict.ADMITTED, caps.admit(HOST, true));
        }
        assertEquals(0, caps.from(HOST));
        assertEquals(Verdict.OVER_TOTAL, caps.admit(HOST, true));
    }

    @Test
    void shouldGiveBackThePlacesOfClosedConnections() {
        ConnectionCaps caps = new ConnectionCaps(2, 1);
        assertEquals(Verdict.ADMITTED, caps.admit(A, false));
        assertEquals(Verdict.ADMITTED, caps.admit(HOST, true));
        assertEquals(Verdict.OVER_TOTAL, caps.admit(B, false));
        caps.release(A, false);
        assertEquals(0, caps.from(A));
        assertEquals(Verdict.ADMITTED, caps.admit(B, false));
        caps.release(HOST, true);
        assertEquals(Verdict.OVER_PER_ADDRESS, caps.admit(B, false));
        assertEquals(Verdict.ADMITTED, caps.admit(A, false));
        assertEquals(2, caps.total());
    }

    private static InetAddress address(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
