package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.common.net.InetAddresses;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class MulticastPoolTest {

    @Test
    void shouldMapGroupsIntoTheSlash16ModuloItsSize() {
        MulticastPool pool = new MulticastPool(v4("239.1.0.0"), 9200);
        assertEquals(new InetSocketAddress(v4("239.1.1.2"), 9200), pool.addressOf(258));
        assertEquals(new InetSocketAddress(v4("239.1.0.0"), 9200), pool.addressOf(65536));
        assertEquals(new InetSocketAddress(v4("239.1.255.255"), 9200), pool.addressOf(-1));
    }

    @Test
    void shouldRefuseABaseThatIsNotAMulticastSlash16() {
        assertThrows(IllegalArgumentException.class, () -> new MulticastPool(v4("10.0.0.0"), 9100));
        assertThrows(IllegalArgumentException.class, () -> new MulticastPool(v4("239.255.1.0"), 9100));
        assertThrows(IllegalArgumentException.class, () -> new MulticastPool(v4("239.255.0.0"), 0));
    }

    private static Inet4Address v4(String literal) {
        return (Inet4Address) InetAddresses.forString(literal);
    }
}
