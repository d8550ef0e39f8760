package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PhasedLossModelTest {
    private static final long SECOND = 1_000_000_000L;
    private static final String SPEC = "phases:20@uniform:0.001;20@bursty:0.01:50;20@uniform:0.05;20@uniform:0.001";

    @Test
    void shouldParseAndPrintTheScheduleBack() {
        LossSpec spec = LossSpec.parse(SPEC);
        assertEquals("phases", spec.kind());
        assertEquals(SPEC, spec.toString());
        assertEquals(spec, LossSpec.parse(spec.toString()));
        assertEquals(4, spec.phaseList().size());
        assertEquals(LossSpec.bursty(0.01, 50), spec.phaseList().get(1).spec());
        assertEquals((0.001 + 0.01 + 0.05 + 0.001) / 4, spec.rate(), 1e-12);
    }

    @Test
    void shouldRefuseMalformedSchedules() {
        for (String bad : List.of("phases:", "phases:uniform:0.01", "phases:x@uniform:0.01", "phases:0@uniform:0.01",
                "phases:5@phases:1@none", "phases:5@uniform:2")) {
            assertThrows(IllegalArgumentException.class, () -> LossSpec.parse(bad), bad);
        }
    }

    @Test
    void shouldApplyEachPhaseForItsTimeFromTheFirstPacket() {
        LossModel model = LossSpec.parse("phases:1@none;1@uniform:0.5;1@none").newModel(3);
        long startNs = 7 * SECOND; // the schedule starts at the first packet, whatever the clock says
        int[] drops = new int[3];
        for (int i = 0; i < 30_000; i++) {
            long nowNs = startNs + i * 100_000L;
            if (model.shouldDrop(nowNs)) {
                drops[(int) Math.min(2, (nowNs - startNs) / SECOND)]++;
            }
        }
        assertEquals(0, drops[0]);
        assertTrue(drops[1] > 4_000 && drops[1] < 6_000, "about half of 10 000: " + drops[1]);
        assertEquals(0, drops[2], "the last phase lasts for ever after");
    }

    @Test
    void shouldDropTheSameWayForTheSameSeed() {
        LossModel a = LossSpec.parse(SPEC).newModel(5);
        LossModel b = LossSpec.parse(SPEC).newModel(5);
        for (long i = 0; i < 100_000; i++) {
            assertEquals(a.shouldDrop(i * 1_000_000L), b.shouldDrop(i * 1_000_000L));
        }
    }
}
