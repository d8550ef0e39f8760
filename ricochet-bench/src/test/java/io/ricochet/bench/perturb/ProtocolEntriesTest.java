package io.ricochet.bench.perturb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol entries of the experiments become simulate's flags. */
class ProtocolEntriesTest {
    @Test
    void aQsmEntrySetsTheTokenHoldAndAPbcastEntryItsVariant() {
        assertEquals(List.of("ricochet", "qsm:0.5", "pbcast:grb"),
                ProtocolEntries.parse("--protocols", "ricochet, qsm:0.5,pbcast:grb,ricochet"));
        assertEquals(List.of("--protocol", "qsm", "--qsm-token-interval-ms", "0.5"), ProtocolEntries.flags("qsm:0.5"));
        assertEquals(List.of("--protocol", "pbcast", "--pbcast-variant", "grb"), ProtocolEntries.flags("pbcast:grb"));
        assertEquals(List.of("--protocol", "qsm"), ProtocolEntries.flags("qsm"));
    }
}
