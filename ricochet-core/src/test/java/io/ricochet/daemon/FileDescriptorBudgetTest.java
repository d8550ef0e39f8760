package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FileDescriptorBudgetTest {
    @Test
    void shouldCountGroupSocketsRoundedUpApiConnectionsAndTheMargin() {
        assertEquals(820 + 256 + FileDescriptorBudget.MARGIN, FileDescriptorBudget.needed(16_384, 20, 256));
        assertEquals(16_384 + 256 + FileDescriptorBudget.MARGIN, FileDescriptorBudget.needed(16_384, 1, 256));
        assertEquals(1 + 1 + FileDescriptorBudget.MARGIN, FileDescriptorBudget.needed(1, 20, 1));
    }

    @Test
    void shouldWarnWhenTheLimitIsBelowTheNeedNamingBothAndTheFix() {
        String warning = FileDescriptorBudget.warning(OptionalLong.of(1024), 16_384, 1, 256).orElseThrow();
        assertTrue(warning.contains("open-file limit 1024"), warning);
        assertTrue(warning.contains(Long.toString(16_384 + 256 + FileDescriptorBudget.MARGIN)), warning);
        assertTrue(warning.contains("LimitNOFILE") && warning.contains("ulimit -n"), warning);
        assertTrue(warning.contains("max-groups") && warning.contains("api-max-connections"), warning);
    }

    @Test
    void shouldNotWarnAtOrAboveTheNeedOrWhenTheLimitIsUnknown() {
        long needed = FileDescriptorBudget.needed(1000, 20, 256);
        assertTrue(FileDescriptorBudget.warning(OptionalLong.of(needed), 1000, 20, 256).isEmpty());
        assertTrue(FileDescriptorBudget.warning(OptionalLong.of(needed - 1), 1000, 20, 256).isPresent());
        assertTrue(FileDescriptorBudget.warning(OptionalLong.empty(), 1000, 20, 256).isEmpty());
    }
}
