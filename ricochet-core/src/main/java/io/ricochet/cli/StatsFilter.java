package io.ricochet.cli;

import io.ricochet.engine.Counter;
import io.ricochet.engine.CounterRole;
import io.ricochet.engine.EngineCounter;
import io.ricochet.protocols.ProtocolChoice;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What {@code ricochet stats} leaves out unless asked for {@code --all}: the counters at 0, under {@code counters}
 * and {@code api}. The headline counters of traffic and recovery stay even at 0 when the running protocol has
 * them (a daemon's stats only list its own protocol's counters), since "no loss yet" is worth reading.
 */
final class StatsFilter {
    /** Shown at 0 too. */
    static final Set<String> HEADLINE = Stream.concat(
                    Stream.of(EngineCounter.DATA_SENT, EngineCounter.DATA_RECEIVED, EngineCounter.DELIVERED,
                            EngineCounter.LOSSES_DETECTED, EngineCounter.RECOVERED_BY_NAK, EngineCounter.UNRECOVERED),
                    CounterRole.RECOVERED_BY_REPAIR.among(ProtocolChoice.allCounters()).stream())
            .map(Counter::name).collect(Collectors.toUnmodifiableSet());
    private static final Set<String> COUNTER_SECTIONS = Set.of("counters", "api");

    /**
     * @param stats  the stats with the zero counters left out
     * @param hidden how many were left out
     */
    record Filtered(Map<String, Object> stats, int hidden) {
    }

    private StatsFilter() {
    }

    /** {@code stats} (as {@link StatsCommand#asMap} gives it) without its non-headline zero counters. */
    static Filtered withoutZeroCounters(Map<String, Object> stats) {
        Map<String, Object> shown = new LinkedHashMap<>();
        int hidden = 0;
        for (Map.Entry<String, Object> entry : stats.entrySet()) {
            if (COUNTER_SECTIONS.contains(entry.getKey()) && entry.getValue() instanceof Map<?, ?> counters) {
                Map<Object, Object> kept = new LinkedHashMap<>();
                for (Map.Entry<?, ?> counter : counters.entrySet()) {
                    if (isZero(counter.getValue()) && !HEADLINE.contains(String.valueOf(counter.getKey()))) {
                        hidden++;
                    } else {
                        kept.put(counter.getKey(), counter.getValue());
                    }
                }
                shown.put(entry.getKey(), kept);
            } else {
                shown.put(entry.getKey(), entry.getValue());
            }
        }
        return new Filtered(shown, hidden);
    }

    /** The entries of {@code values} that are not 0, in order; null for null. */
    static Map<String, Long> nonZero(Map<String, Long> values) {
        if (values == null) {
            return null;
        }
        Map<String, Long> kept = new LinkedHashMap<>(values);
        kept.values().removeIf(StatsFilter::isZero);
        return kept;
    }

    private static boolean isZero(Object value) {
        return value instanceof Number n && n.doubleValue() == 0;
    }
}
