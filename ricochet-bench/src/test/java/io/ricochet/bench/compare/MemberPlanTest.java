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
                0, 1024, 0, 1, 0, 0, 1, 1, 17190, 20000, Map.of("multicast-ttl", "8")));
        assertTrue(message.contains("ricochet setting = [multicast-ttl]"), message);
        assertEquals(Map.of("bundle-bytes", "512"), new MemberPlan(SystemKind.RICOCHET, 1, 2, List.of(1),
                MemberPlan.Sending.NONE, 0, 1024, 0, 1, 0, 0, 1, 1, 17190, 20000, Map.of("bundle-bytes", "512"))
                .ricochetSettings());
    }

    @Test
    void badValuesAreRefusedNamingTheValueAndTheRule() {
        assertTrue(refusal(() -> plan(SystemKind.RICOCHET, 1, 2, List.of(1), 1024, 0, 2))
                .contains("ttl = 2: must be 0 or 1"));
        assertTrue(refusal(() -> plan(SystemKind.RICOCHET, 1, 2, List.of(1), 1024, 1.0, 1))
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
                .contains("use one of jgroups, jgroups-tuned, ricochet"));
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
        MemberPlan plan = plan(SystemKind.RICOCHET, 3, 8, List.of(1), 1024, 0.01, 0);
        assertEquals("127.0.0.13", RicochetMember.settings(plan).get("address"));
        assertEquals("uniform:0.01", RicochetMember.settings(plan).get("inject-loss"));
        assertEquals("0", RicochetMember.settings(plan).get("multicast-ttl"));
        assertEquals("lo", RicochetMember.settings(plan).get("interface"));
    }

    @Test
    void theRicochetDaemonOfAMemberTakesMessagesOfTheTrialsSize() {
        for (int size : new int[] {64, 1024, 1200}) {
            MemberPlan plan = plan(SystemKind.RICOCHET, 3, 8, List.of(1), size, 0, 0);
            DaemonConfig config = DaemonSettings.resolve(null, null, RicochetMember.settings(plan));
            assertTrue(config.engine().maxPayload() - 1 >= size, size + "-byte messages: the daemon's payload "
                    + config.engine().maxPayload() + " less its kind byte must hold them");
        }
    }
}
