package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HostReadingsTest {
    private static final String SNMP = String.join("\n",
            "Ip: Forwarding DefaultTTL InReceives",
            "Ip: 2 64 1000",
            "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti",
            "Udp: 5000 3 120 40 117 0 0 9",
            "UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti",
            "UdpLite: 0 0 0 0 0 0 0 0", "");

    @Test
    void shouldReadTheUdpCountersByName() {
        Map<String, Long> udp = HostReadings.udpCounters(SNMP);
        assertEquals(5000L, udp.get("InDatagrams"));
        assertEquals(117L, udp.get("RcvbufErrors"));
        assertEquals(120L, udp.get("InErrors"));
        assertEquals(8, udp.size(), "UdpLite is another table");
    }

    @Test
    void shouldReadCpuTicksAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 9000 0 3 0 1500 250 0 0 20 0 40 0 100 0";
        assertEquals(1750, HostReadings.cpuTicks(stat));
    }

    @Test
    void shouldGiveNothingForTextItCannotRead() {
        assertTrue(HostReadings.udpCounters("Udp: A B\nUdp: 1 x\n").isEmpty());
        assertTrue(HostReadings.udpCounters("").isEmpty());
        assertEquals(-1, HostReadings.cpuTicks("no parenthesis"));
        assertEquals(-1, HostReadings.cpuTicks("1 (a) S 2"));
        assertEquals(-1, HostReadings.cpuTicks("1 (a) S 1 2 3 4 5 6 7 8 9 10 u s"));
        assertEquals(-1, HostReadings.cpuTicks(-5));
    }
}
