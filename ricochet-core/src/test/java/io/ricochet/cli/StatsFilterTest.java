package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsFilterTest {

    @Test
    void shouldLeaveOutZeroCountersButKeepTheHeadlinesAndEverythingElse() {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("node", 3);
        stats.put("counters", ordered("DATA_SENT", 0L, "NAKS_SENT", 0L, "RECOVERED_BY_XOR", 0L, "DUPLICATES", 4L));
        stats.put("buffers", ordered("streams", 0L));
        stats.put("api", ordered("CONNECTIONS_OPEN", 1L, "FRAMES_IN", 0L));
        stats.put("groups", List.of());

        StatsFilter.Filtered filtered = StatsFilter.withoutZeroCounters(stats);

        assertEquals(2, filtered.hidden());
        assertEquals(List.of("node", "counters", "buffers", "api", "groups"),
                List.copyOf(filtered.stats().keySet()));
        assertEquals(ordered("DATA_SENT", 0L, "RECOVERED_BY_XOR", 0L, "DUPLICATES", 4L),
                filtered.stats().get("counters"));
        assertEquals(ordered("CONNECTIONS_OPEN", 1L), filtered.stats().get("api"));
        assertEquals(ordered("streams", 0L), filtered.stats().get("buffers"));
        assertEquals(List.copyOf(((Map<?, ?>) filtered.stats().get("counters")).keySet()),
                List.of("DATA_SENT", "RECOVERED_BY_XOR", "DUPLICATES"));
    }

    private static Map<String, Object> ordered(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
