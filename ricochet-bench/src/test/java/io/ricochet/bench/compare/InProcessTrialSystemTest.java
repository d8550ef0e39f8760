package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both systems end to end in one JVM on loopback multicast (run by failsafe in a private network namespace): every
 * member sees every other member's messages, and with loss the recording on each side names the dropped messages
 * the members then receive.
 */
class InProcessTrialSystemTest {
    @TempDir
    Path logs;

    private static List<MemberPlan> plans(SystemKind system, double loss, int basePort) {
        List<MemberPlan> plans = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            plans.add(new MemberPlan(system, id, 3, List.of(1, 2), MemberPlan.Sending.PACED, 200, 256, 0, 2, 3,
                    loss, 7, 1, 17180 + basePort % 7, basePort, Map.of()));
        }
        return plans;
    }

    private static TrialSummary run(SystemKind system, double loss, int basePort, Path logs) throws Exception {
        List<MemberPlan> plans = plans(system, loss, basePort);
        return TrialSummary.of(Packaging.INPROCESS, plans, Trial.run(Packaging.INPROCESS, plans, logs));
    }

    @Test
    void withoutLossEveryMemberDeliversEveryOtherMembersMessagesOnBothSystems() throws Exception {
        for (SystemKind system : List.of(SystemKind.RICOCHET, SystemKind.JGROUPS)) {
            TrialSummary s = run(system, 0, system == SystemKind.RICOCHET ? 21000 : 23000, logs);
            assertTrue(s.sent() > 0, system + " sent nothing");
            assertEquals(s.expected(), s.delivered(), system + ": " + s);
            assertEquals(0, s.drops(), system.cliName());
            assertEquals(0, s.malformed(), system.cliName());
            for (MemberResult r : s.results()) {
                assertEquals(2, r.perSender().size(), system + " member " + r.member() + " heard " + r.perSender());
            }
        }
    }

    @Test
    void withLossTheDroppedMessagesAreRecordedAndTheirRecoveriesTimed() throws Exception {
        for (SystemKind system : List.of(SystemKind.RICOCHET, SystemKind.JGROUPS_TUNED)) {
            TrialSummary s = run(system, 0.05, system == SystemKind.RICOCHET ? 25000 : 27000, logs);
            assertTrue(s.drops() > 0, system + " dropped nothing: " + s);
            assertEquals(s.drops() - s.dropsNotDelivered(), s.recoveryMs().count(), system.cliName());
            assertTrue(s.recoveryMs().count() > 0, system + " timed no recovery");
        }
    }
}
