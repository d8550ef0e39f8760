package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.daemon.DaemonConfig;
import io.ricochet.daemon.DaemonSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemberPlanTest {
    static MemberPlan plan(SystemKind system, int id, int members, List<Integer> groups, int size, double loss,
                           int ttl) {
        return new MemberPlan(system, id, members, groups, MemberPlan.Sending.PACED, 100, size, 0, 1, 0, loss, 1, ttl,
                17190, 20000, Map.of());
    }

    private static String refusal(Runnable build) {
        return assertThrows(IllegalArgumentException.class, build::run).getMessage();
    }

    @Test
    void aDaemonSettingTheHarnessKeepsIsRefused() {
        String message = refusal(() -> new MemberPlan(SystemKind.RICOCHET, 1, 2, List.of(1), MemberPlan.Sending.NONE,
                0, 1000, 0, 1, 0, 0, 1, 1, 17190, 20000, Map.of("multicast-ttl", "8")));
        assertTrue(message.contains("ricochet setting = [multicast-ttl]"), message);
        assertEquals(Map.of("bundle-bytes", "512"), new MemberPlan(SystemKind.RICOCHET, 1, 2, List.of(1),
                MemberPlan.Sending.NONE, 0, 1000, 0, 1, 0, 0, 1, 1, 17190, 20000, Map.of("bundle-bytes", "512"))
                .ricochetSettings());
    }

    @Test
    void badValuesAreRefusedNamingTheValueAndTheRule() {
        assertTrue(refusal(() -> plan(SystemKind.RICOCHET, 1, 2, List.of(1), 1000, 0, 2))
                .contains("ttl = 2: must be 0 or 1"));
        assertTrue(refusal(() -> plan(SystemKind.RICOCHET, 1, 2, List.of(1), 1000, 1.0, 1))
                .contains("loss = 1.0: must be a rate in [0, 1)"));
        assertTrue(refusal(() -> plan(SystemKind.JGROUPS, 1, 2, List.of(1), 10, 0, 1))
                .contains("message size = 10"));
        assertTrue(refusal(() -> plan(SystemKind.JGROUPS, 3, 2, List.of(1), 64, 0, 1))
                .contains("member id = 3: must be in 1..members (2)"));
        assertTrue(refusal(() -> plan(SystemKind.JGROUPS, 1, 2, List.of(1, 1), 64, 0, 1))
                .contains("must not repeat"));
        assertTrue(refusal(() -> plan(SystemKind.JGROUPS, 1, 2, List.of(MemberPlan.MAX_GROUP + 1), 64, 0, 1))
                .contains("must be ids in 1..1024"));
    }

    @Test
    void systemAndPackagingNamesAreParsedAndUnknownOnesListTheChoices() {
        assertEquals(SystemKind.JGROUPS_TUNED, SystemKind.parse(" JGroups-Tuned "));
        assertEquals(Packaging.INPROCESS, Packaging.parse("inprocess"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SystemKind.parse("zeromq")).getMessage()
                .contains("use one of jgroups, jgroups-tuned, jgroups-link, jgroups-encrypt, ricochet"));
        assertThrows(IllegalArgumentException.class, () -> Packaging.parse("threads"));
    }

    @Test
    void aPlanSurvivesTheJsonItIsHandedToAMemberProcessIn() throws Exception {
        MemberPlan plan = plan(SystemKind.JGROUPS_TUNED, 2, 8, List.of(1, 2, 3), 1024, 0.01, 1);
        ObjectMapper json = new ObjectMapper();
        assertEquals(plan, json.readValue(json.writeValueAsString(plan), MemberPlan.class));
    }

    @Test
    void theRicochetDaemonOfAMemberHasItsOwnLoopbackAddressAndTheInjectedLoss() {
        MemberPlan plan = plan(SystemKind.RICOCHET, 3, 8, List.of(1), 1000, 0.01, 0);
        assertEquals("127.0.0.13", RicochetMember.settings(plan).get("address"));
        assertEquals("uniform:0.01", RicochetMember.settings(plan).get("inject-loss"));
        assertEquals("0", RicochetMember.settings(plan).get("multicast-ttl"));
        assertEquals("lo", RicochetMember.settings(plan).get("interface"));
    }

    @Test
    void aRicochetMessageSizeMustFitTheDefaultPayloadOrNameAVariant() {
        for (int size : new int[] {64, 1000, 1023}) {
            MemberPlan plan = plan(SystemKind.RICOCHET, 3, 8, List.of(1), size, 0, 1);
            assertTrue(!RicochetMember.settings(plan).containsKey("payload"), "payload is never raised silently");
            DaemonConfig config = DaemonSettings.resolve(null, null, withCredentials(RicochetMember.settings(plan)));
            assertTrue(config.engine().maxPayload() - 1 >= size, size + "-byte messages must fit the default");
        }
        String refused = refusal(() -> plan(SystemKind.RICOCHET, 3, 8, List.of(1), 1024, 0, 1));
        assertTrue(refused.contains("message size = 1024: does not fit Ricochet's payload 1024"), refused);
        assertTrue(refused.contains("--ricochet-set payload=N"), refused);
        MemberPlan bigger = new MemberPlan(SystemKind.RICOCHET, 1, 2, List.of(1), MemberPlan.Sending.NONE, 0, 1200, 0,
                1, 0, 0, 1, 1, 17190, 20000, Map.of("payload", "1400"));
        assertEquals("ricochet [payload=1400] (authenticated)", RicochetMember.variant(bigger));
        plan(SystemKind.JGROUPS, 3, 8, List.of(1), 1024, 0, 1); // JGroups has no payload limit of its kind
    }

    /** The settings with credentials files that exist nowhere: resolving checks no file for these keys' syntax. */
    private static Map<String, String> withCredentials(Map<String, String> settings) {
        Map<String, String> copy = new java.util.LinkedHashMap<>(settings);
        copy.put("insecure", "on"); // resolving would read the key file; the payload is what this test looks at
        copy.keySet().removeAll(List.of("key-file", "tls-cert", "tls-key", "tls-ca"));
        return copy;
    }

    private static MemberPlan authenticated(int id, int mtu, Map<String, String> settings) {
        return new MemberPlan(SystemKind.RICOCHET, id, 4, List.of(1), MemberPlan.Sending.NONE, 0, 1000, 0, 1, 0, 0, 1,
                1, 17190, 20000, settings, mtu, "/run/creds");
    }

    @Test
    void aRicochetMemberRunsAuthenticatedWithEverySettingAtItsDefaultButAddressing() {
        MemberPlan plan = authenticated(3, 0, Map.of());
        Map<String, String> settings = RicochetMember.settings(plan);
        assertEquals("/run/creds/cluster.key", settings.get("key-file"));
        assertEquals("/run/creds/node-3.pem", settings.get("tls-cert"));
        assertEquals("/run/creds/node-3.key", settings.get("tls-key"));
        assertEquals("/run/creds/ca.pem", settings.get("tls-ca"));
        assertTrue(!settings.containsKey("insecure"), settings.toString());
        for (String key : settings.keySet()) {
            assertTrue(RicochetMember.ADDRESSING.contains(key), "only addressing and credentials are set: " + key);
        }
        assertEquals(Map.of(), RicochetMember.nonDefaults(plan));
        assertEquals("ricochet (defaults, authenticated)", SystemKind.variant(plan));
    }

    @Test
    void anInsecureOrOtherwiseChangedRicochetIsANamedVariant() {
        MemberPlan insecure = authenticated(2, 0, Map.of("insecure", "on"));
        assertEquals("ricochet [insecure=on]", SystemKind.variant(insecure));
        assertTrue(!RicochetMember.settings(insecure).containsKey("key-file"), "insecure runs without credentials");
        MemberPlan lossy = plan(SystemKind.RICOCHET, 3, 8, List.of(1), 1000, 0.01, 0);
        assertEquals("ricochet [inject-loss=uniform:0.01, seed=per member, multicast-ttl=0] (authenticated)",
                SystemKind.variant(lossy));
    }

    @Test
    void onARealLinkAMemberHasItsNamespacesAddressAndTheGmsIsOnTheBridge() {
        MemberPlan plan = authenticated(3, 1500, Map.of());
        Map<String, String> settings = RicochetMember.settings(plan);
        assertEquals("198.18.0.3", settings.get("address"));
        assertEquals("v0", settings.get("interface"));
        assertEquals("198.18.0.250:17190", settings.get("gms"));
        assertEquals("ricochet (defaults, authenticated)", SystemKind.variant(plan));
        assertEquals("198.18.0.3", plan.bindAddress());
        assertTrue(refusal(() -> new MemberPlan(SystemKind.JGROUPS, 1, 2, List.of(1), MemberPlan.Sending.NONE, 0,
                1000, 0, 1, 0, 0.01, 1, 1, 17190, 20000, Map.of(), 1500, null)).contains("nftables"));
        assertTrue(refusal(() -> authenticated(3, 100, Map.of())).contains("mtu = 100"));
        assertTrue(refusal(() -> authenticated(3, 0, Map.of("key-file", "/x"))).contains("ricochet setting"));
    }
}
