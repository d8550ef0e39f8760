package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The link's command lines and parsers; nothing here runs a command or needs root. */
class NetLabTest {
    private static NetLab lab(int members, int mtu) throws Exception {
        Constructor<NetLab> c = NetLab.class.getDeclaredConstructor(int.class, int.class);
        c.setAccessible(true);
        return c.newInstance(members, mtu);
    }

    @Test
    void everyCommandActsInsideANamespaceOfTheRunAndSetsTheMtuOnBothEnds() throws Exception {
        List<List<String>> commands = lab(3, 9000).setupCommands();
        for (List<String> c : commands) {
            assertEquals("ip", c.get(0));
            boolean namespaceOp = c.get(1).equals("netns") && c.get(2).equals("add")
                    && c.get(3).startsWith(NetLab.PREFIX);
            boolean inside = c.get(1).equals("-n") && c.get(2).startsWith(NetLab.PREFIX)
                    || c.get(1).equals("netns") && c.get(2).equals("exec") && c.get(3).startsWith(NetLab.PREFIX);
            assertTrue(namespaceOp || inside, "outside the run's namespaces: " + c);
        }
        assertTrue(commands.contains(List.of("ip", "-n", "vsjg-br", "link", "add", "br0", "type", "bridge",
                "mcast_snooping", "0")));
        assertTrue(commands.contains(List.of("ip", "-n", "vsjg-br", "link", "set", "p2", "mtu", "9000")));
        assertTrue(commands.contains(List.of("ip", "-n", "vsjg-br", "link", "add", "p2", "gso_max_segs", "1", "type",
                "veth", "peer", "name", "v0", "netns", "vsjg-m2", "gso_max_segs", "1")),
                "GSO runs cut into datagrams before the link, both ways, so loss draws per datagram");
        assertTrue(commands.contains(List.of("ip", "netns", "exec", "vsjg-m2", "ethtool", "-K", "v0", "gro", "on")),
                "the member's end does GRO, as a NIC's driver does");
        assertTrue(commands.contains(List.of("ip", "-n", "vsjg-m2", "link", "set", "v0", "mtu", "9000")));
        assertTrue(commands.contains(List.of("ip", "-n", "vsjg-m2", "addr", "add", "198.18.0.2/24", "dev", "v0")));
        assertTrue(commands.contains(List.of("ip", "-n", "vsjg-m3", "route", "add", "224.0.0.0/4", "dev", "v0")));
        assertTrue(commands.contains(List.of("ip", "-n", "vsjg-gms", "addr", "add", "198.18.0.250/24", "dev", "v0")));
        assertEquals(List.of("ip", "netns", "del", "vsjg-m1"), NetLab.deleteCommand("vsjg-m1"));
        assertEquals(List.of("ip", "netns", "exec", "vsjg-m4"), NetLab.inNamespace(NetLab.memberNs(4)));
    }

    @Test
    void theLossRulesetDropsEveryUdpPacketOnTheLinkToTheMemberFragmentsOneByOne() {
        String rules = NetLab.lossRuleset(3, 0.001);
        assertTrue(rules.startsWith("table netdev vsjg_loss_3\ndelete table netdev vsjg_loss_3\n"),
                "replaces: " + rules);
        assertTrue(rules.contains("type filter hook egress device \"p3\" priority 0; policy accept;"), rules);
        assertTrue(rules.contains("ip protocol udp ip frag-off & 0x3fff != 0 numgen random mod 1000000 < 1000 "
                + "counter name \"frag_dropped\" drop"), rules);
        assertTrue(rules.contains("ip protocol udp ip frag-off & 0x3fff == 0 numgen random mod 1000000 < 1000 "
                + "counter name \"udp_dropped\" drop"), rules);
        String none = NetLab.lossRuleset(1, 0);
        assertTrue(none.contains("counter name \"udp_seen\"") && !none.contains("numgen"), none);
        assertEquals(10_000, NetLab.perMillion(0.01));
        assertThrows(IllegalArgumentException.class, () -> NetLab.perMillion(-0.1));
        assertThrows(IllegalArgumentException.class, () -> NetLab.perMillion(Double.NaN));
    }

    @Test
    void countersAreReadFromNftJsonAndProcNetSnmp() throws Exception {
        String json = "{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\"}}, {\"table\": {\"family\": \"netdev\","
                + " \"name\": \"vsjg_loss\"}}, {\"counter\": {\"family\": \"netdev\", \"name\": \"udp_seen\", "
                + "\"table\": \"vsjg_loss\", \"packets\": 120, \"bytes\": 9}}, {\"counter\": {\"name\": "
                + "\"frag_dropped\", \"packets\": 3, \"bytes\": 9}}, {\"rule\": {\"expr\": [{\"counter\": "
                + "\"udp_seen\"}]}}]}";
        assertEquals(Map.of("nft.udp_seen", 120L, "nft.frag_dropped", 3L), NetLab.parseNftCounters(json));
        String snmp = "Ip: Forwarding DefaultTTL InReceives ReasmReqds ReasmOKs ReasmFails\n"
                + "Ip: 2 64 100 40 9 2\n"
                + "Icmp: InMsgs\nIcmp: 0\n"
                + "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors\n"
                + "Udp: 70 1 5 3 4 0\n";
        Map<String, Long> counts = NetLab.parseSnmp(snmp);
        assertEquals(4L, counts.get("kernel.Udp.RcvbufErrors"));
        assertEquals(5L, counts.get("kernel.Udp.InErrors"));
        assertEquals(2L, counts.get("kernel.Ip.ReasmFails"));
        assertEquals(40L, counts.get("kernel.Ip.ReasmReqds"));
        assertEquals(70L, counts.get("kernel.Udp.InDatagrams"));
    }
}
