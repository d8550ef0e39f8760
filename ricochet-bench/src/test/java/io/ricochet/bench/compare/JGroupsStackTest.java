package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jgroups.conf.ProtocolConfiguration;
import org.junit.jupiter.api.Test;

class JGroupsStackTest {
    private static MemberPlan plan(SystemKind system, int mtu) {
        return new MemberPlan(system, 2, 4, List.of(7), MemberPlan.Sending.NONE, 0, 1000, 0, 1, 0, 0, 1, 1, 17190,
                20000, Map.of(), mtu, "/run/creds");
    }

    private static Map<String, String> props(List<ProtocolConfiguration> stack, String name) {
        return stack.stream().filter(p -> p.getProtocolName().endsWith(name)).findFirst().orElseThrow()
                .getProperties();
    }

    private static List<String> names(List<ProtocolConfiguration> stack) {
        return stack.stream().map(ProtocolConfiguration::getProtocolName).toList();
    }

    @Test
    void stockIsUdpXmlWithOnlyAddressingAndTheBannerAndDiagnosticsOff() throws Exception {
        List<ProtocolConfiguration> stack = JGroupsStack.protocols(plan(SystemKind.JGROUPS, 1500), 7);
        Map<String, String> udp = props(stack, "UDP");
        assertEquals("198.18.0.2", udp.get("bind_addr"));
        assertEquals("239.8.0.7", udp.get("mcast_addr"));
        assertEquals("20007", udp.get("mcast_port"));
        assertEquals("1", udp.get("ip_ttl"));
        assertEquals("false", udp.get("diag.enabled"));
        assertTrue(udp.get("bundler.max_size").contains("64K"), "stock bundles: " + udp.get("bundler.max_size"));
        assertEquals("60K", props(stack, "FRAG2").get("frag_size"));
        assertEquals("0.5s", props(stack, "NAKACK2").get("xmit_interval"));
        assertFalse(names(stack).contains("SYM_ENCRYPT"));
        assertEquals("127.0.0.1", props(JGroupsStack.protocols(plan(SystemKind.JGROUPS, 0), 7), "UDP")
                .get("bind_addr"));
    }

    @Test
    void theLinkConfigurationSendsDatagramsThatFitTheMtuAndRetransmitsSooner() throws Exception {
        List<ProtocolConfiguration> at1500 = JGroupsStack.protocols(plan(SystemKind.JGROUPS_LINK, 1500), 7);
        assertEquals("1408", props(at1500, "UDP").get("bundler.max_size"));
        assertTrue(1408 + JGroupsStack.IP_UDP_HEADERS <= 1500);
        assertEquals("1208", props(at1500, "FRAG2").get("frag_size"));
        assertEquals("100ms", props(at1500, "NAKACK2").get("xmit_interval"));
        List<ProtocolConfiguration> at9000 = JGroupsStack.protocols(plan(SystemKind.JGROUPS_LINK, 9000), 7);
        assertEquals("8908", props(at9000, "UDP").get("bundler.max_size"));
        assertEquals("8708", props(at9000, "FRAG2").get("frag_size"));
        assertEquals(64_000, JGroupsStack.bundleBytes(0), "on loopback no more than stock");
        assertEquals("jgroups-link (bundles <= 1408 B, FRAG2 1208 B, xmit_interval 100ms)",
                SystemKind.variant(plan(SystemKind.JGROUPS_LINK, 1500)));
    }

    @Test
    void theTunedConfigurationOnlyRetransmitsSooner() throws Exception {
        List<ProtocolConfiguration> stack = JGroupsStack.protocols(plan(SystemKind.JGROUPS_TUNED, 1500), 7);
        assertEquals("100ms", props(stack, "NAKACK2").get("xmit_interval"));
        assertEquals("60K", props(stack, "FRAG2").get("frag_size"));
    }

    @Test
    void theEncryptingConfigurationIsTheLinkOneWithSymEncryptRightBelowNakack2() throws Exception {
        List<ProtocolConfiguration> stack = JGroupsStack.protocols(plan(SystemKind.JGROUPS_ENCRYPT, 1500), 7);
        List<String> names = names(stack);
        int encrypt = names.indexOf("SYM_ENCRYPT");
        assertTrue(encrypt > 0, names.toString());
        assertTrue(names.get(encrypt + 1).endsWith("NAKACK2"), "right below NAKACK2: " + names);
        Map<String, String> sym = stack.get(encrypt).getProperties();
        assertEquals("/run/creds/" + JGroupsKeystore.FILE, sym.get("keystore_name"));
        assertEquals("AES/CBC/PKCS5Padding", sym.get("sym_algorithm"));
        assertEquals("16", sym.get("sym_iv_length"));
        assertEquals("1408", props(stack, "UDP").get("bundler.max_size"));
        assertNull(props(JGroupsStack.protocols(plan(SystemKind.JGROUPS_LINK, 1500), 7), "UDP").get("keystore_name"));
    }
}
