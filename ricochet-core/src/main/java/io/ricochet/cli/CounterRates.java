package io.ricochet.cli;

import io.ricochet.api.NodeStats;
import io.ricochet.api.server.ApiCounter;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.Counter;
import io.ricochet.engine.CounterRole;
import io.ricochet.protocols.ProtocolChoice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a daemon's counters did between two of its snapshots: each counter's increase and its rate per second. Gauges
 * (counters whose description says they are one, such as {@code SEND_QUEUE_PEAK}) have no rate: they are shown as
 * values.
 *
 * @param deltas  each counter's increase, by name, for the counters in both snapshots that did not go back
 * @param seconds the time between the snapshots
 */
record CounterRates(Map<String, Long> deltas, double seconds) {
    /** The names of the counters that are levels, not running totals. */
    static final Set<String> GAUGES = Stream.concat(
                    DaemonCounter.ALL.stream().map(c -> Map.entry(c.name(), c.description())),
                    Stream.of(ApiCounter.values()).map(c -> Map.entry(c.name(), c.description())))
            .filter(counter -> counter.getValue().contains("gauge"))
            .map(Map.Entry::getKey)
            .collect(Collectors.toUnmodifiableSet());

    private static final double NANOS_PER_SECOND = 1e9;

    /**
     * The counters' increases from {@code before} to {@code after}, taken {@code elapsedNs} apart; null if they cannot
     * be compared: no earlier snapshot, another node or another incarnation of it (a restarted daemon counts from 0),
     * or no time between them.
     */
    static CounterRates between(NodeStats before, NodeStats after, long elapsedNs) {
        if (before == null || after == null || before.node() != after.node()
                || before.incarnation() != after.incarnation() || elapsedNs <= 0) {
            return null;
        }
        Map<String, Long> deltas = new LinkedHashMap<>();
        put(deltas, before.counters(), after.counters());
        put(deltas, before.api(), after.api());
        return new CounterRates(deltas, elapsedNs / NANOS_PER_SECOND);
    }

    private static void put(Map<String, Long> deltas, Map<String, Long> before, Map<String, Long> after) {
        if (before == null || after == null) {
            return;
        }
        after.forEach((name, value) -> {
            Long old = before.get(name);
            if (old != null && value >= old && !GAUGES.contains(name)) {
                deltas.put(name, value - old);
            }
        });
    }

    /** The increase of {@code counter}, 0 if it is not known. */
    long delta(Counter counter) {
        return deltas.getOrDefault(counter.name(), 0L);
    }

    /** The rate of {@code counter} per second, NaN if this daemon does not have it. */
    double perSecond(Counter counter) {
        Long delta = deltas.get(counter.name());
        return delta == null ? Double.NaN : delta / seconds;
    }

    /** The increase of the counters that have {@code role} (whichever protocol's this daemon runs), 0 if none. */
    long delta(CounterRole role) {
        return role.among(ProtocolChoice.allCounters()).stream().mapToLong(this::delta).sum();
    }

    /** The rate per second of the counters that have {@code role}, NaN if this daemon has none of them. */
    double perSecond(CounterRole role) {
        List<Counter> known = role.among(ProtocolChoice.allCounters()).stream()
                .filter(c -> deltas.containsKey(c.name())).toList();
        return known.isEmpty() ? Double.NaN : known.stream().mapToLong(this::delta).sum() / seconds;
    }

    /** Every counter's rate per second, by name, in the snapshot's order. */
    Map<String, Double> perSecond() {
        Map<String, Double> rates = new LinkedHashMap<>();
        deltas.forEach((name, delta) -> rates.put(name, delta / seconds));
        return rates;
    }
}
