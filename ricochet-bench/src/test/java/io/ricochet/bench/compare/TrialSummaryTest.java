package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.workload.LatencyHistogram;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrialSummaryTest {
    private static String histogram(long... micros) {
        LatencyHistogram h = new LatencyHistogram();
        for (long m : micros) {
            h.recordMicros(m);
        }
        return h.encode();
    }

    private static MemberResult result(int member, long sent, long delivered, long inWindow, double cpu,
                                       String recovery) {
        return new MemberResult(member, sent, 0, delivered, inWindow, 2.0, cpu, Map.of(), 3, 1, 0, 0, recovery,
                histogram(100), Map.of());
    }

    private static List<MemberPlan> plans() {
        return List.of(MemberPlanTest.plan(SystemKind.RICOCHET, 1, 3, List.of(1), 1000, 0, 1),
                MemberPlanTest.plan(SystemKind.RICOCHET, 2, 3, List.of(1), 1000, 0, 1),
                MemberPlanTest.plan(SystemKind.RICOCHET, 3, 3, List.of(1), 1000, 0, 1));
    }

    private static List<MemberResult> results() {
        return List.of(result(1, 1000, 0, 0, 1.0, histogram()),
                result(2, 0, 1000, 800, 0.5, histogram(2000, 4000)),
                result(3, 0, 900, 600, 0.7, histogram(6000)));
    }

    @Test
    void receiversAreTheMembersOthersSentToAndTheirRatesComeFromTheWindow() {
        TrialSummary s = TrialSummary.of(Packaging.PROCESSES, plans(), results());
        assertEquals(1000, s.sent());
        assertEquals(2000, s.expected(), "two receivers of 1000 messages; the sender expects nothing");
        assertEquals(1900, s.delivered());
        assertEquals(0.95, s.deliveredRatio(), 1e-9);
        assertEquals(350, s.perReceiverPerSecond(), 1e-9);
        assertEquals(300, s.minPerReceiverPerSecond(), 1e-9);
        assertEquals(9, s.drops());
        assertEquals(3, s.dropsNotDelivered());
        assertEquals(3, s.recoveryMs().count());
        assertEquals(4.0, s.recoveryMs().mean(), 0.01);
    }

    @Test
    void cpuIsSummedOverProcessesButCountedOnceForOneProcess() {
        assertEquals(2.2, TrialSummary.of(Packaging.PROCESSES, plans(), results()).cpuSeconds(), 1e-9);
        assertEquals(2.2e6 / 1400, TrialSummary.of(Packaging.PROCESSES, plans(), results()).cpuMicrosPerDelivery(),
                1e-6);
        assertEquals(1.0, TrialSummary.of(Packaging.INPROCESS, plans(), results()).cpuSeconds(), 1e-9);
    }
}
