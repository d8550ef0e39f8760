package io.ricochet.cli;

import io.ricochet.api.NodeStats;
import io.ricochet.api.RateOfFireLine;
import io.ricochet.cli.StatsSource.Sample;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.CounterRole;
import io.ricochet.engine.EngineCounter;
import io.ricochet.latency.LatencyStats;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The text of one {@code ricochet top} screen: a row per daemon (rates over the last interval, recovery, buffers,
 * the GMS link, failures learnt), then a line per GMS partition saying which leader the daemons follow.
 */
final class TopView {
    static final List<String> HEADER = List.of("NODE", "IN/s", "OUT/s", "REP-IN/s", "REP-OUT/s", "LOSS/s", "REP%",
            "NAK%", "LOST", "P50ms", "P99ms", "RXBUF", "DROP/s", "GMS", "FAILED", "R/C/ST");
    static final String LEGEND = "IN/OUT data packets, REP repairs (LEC's or FEC's), LOSS losses detected, "
            + "REP%/NAK% how this interval's recoveries were made,\nLOST given up (total), P50/P99 discovery to "
            + "recovery since start, RXBUF receive-buffer packets, DROP its random drops,\nGMS partitions up/all and "
            + "highest term, FAILED members the GMS reported failed (total),\n"
            + "R/C/ST with rate-of-fire tuning on: LEC's r, the lowest-highest c of the node's groups as tuned now, "
            + "and the stagger (ricochet stats: each group's, and why)";
    private static final String NONE = "-";
    private static final double PERCENT = 100.0;

    /**
     * One line of the table.
     *
     * @param cells the columns of {@link #HEADER}, or only the first when {@code note} is set
     * @param note  what is shown instead of the figures (an unreachable daemon), or null
     */
    record Row(List<String> cells, String note) {
    }

    private TopView() {
    }

    /** The screen: {@code title}, the table of {@code now} (rates against {@code before}), the GMS lines. */
    static String render(String title, List<Sample> before, List<Sample> now) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < now.size(); i++) {
            rows.add(row(i < before.size() ? before.get(i) : null, now.get(i)));
        }
        StringBuilder text = new StringBuilder(title).append("\n\n").append(table(rows));
        gmsLines(now).forEach(line -> text.append(line).append('\n'));
        return text.append('\n').append(LEGEND).append('\n').toString();
    }

    /** A daemon's row; rates are "-" without an earlier sample of the same incarnation. */
    static Row row(Sample before, Sample now) {
        if (!now.ok()) {
            return new Row(List.of(now.address().toString()), "unreachable: " + now.error());
        }
        NodeStats s = now.stats();
        CounterRates rates = before == null || !before.ok() ? null
                : CounterRates.between(before.stats(), s, now.atNs() - before.atNs());
        LatencyStats.Summary latency = s.daemon() == null ? null : s.daemon().recoveryAfterDiscoveryMs();
        boolean measured = latency != null && latency.count() > 0;
        return new Row(List.of(String.valueOf(s.node()),
                rate(rates, EngineCounter.DATA_RECEIVED), rate(rates, EngineCounter.DATA_SENT),
                rate(rates, CounterRole.REPAIRS_RECEIVED), rate(rates, CounterRole.REPAIRS_SENT),
                rate(rates, EngineCounter.LOSSES_DETECTED),
                share(rates, rates == null ? 0 : rates.delta(CounterRole.RECOVERED_BY_REPAIR)),
                share(rates, rates == null ? 0 : rates.delta(EngineCounter.RECOVERED_BY_NAK)),
                total(s, EngineCounter.UNRECOVERED.name()),
                measured ? millis(latency.p50()) : NONE, measured ? millis(latency.p99()) : NONE,
                s.buffers() == null ? NONE : compact(s.buffers().getOrDefault("rxBufferPackets", 0L)),
                rate(rates, DaemonCounter.RX_BUFFER_RANDOM_DROPS), gms(s.gms()),
                total(s, DaemonCounter.MEMBER_FAILURES.name()), rateOfFire(s.rateOfFire())), null);
    }

    /**
     * The node's rate-of-fire over its groups, {@code r/c/stagger} with a range where its groups differ
     * ({@code 8/2.5-6/1}); "-" with tuning off (the stats then carry none) or before any group was seen.
     */
    static String rateOfFire(Map<Integer, String> lines) {
        List<RateOfFireLine> parsed = lines == null ? List.of() : lines.values().stream()
                .map(RateOfFireLine::parse).flatMap(Optional::stream).toList();
        if (parsed.isEmpty()) {
            return NONE;
        }
        return range(parsed.stream().mapToDouble(RateOfFireLine::r).summaryStatistics()) + "/"
                + range(parsed.stream().mapToDouble(RateOfFireLine::c).summaryStatistics()) + "/"
                + range(parsed.stream().mapToDouble(RateOfFireLine::stagger).summaryStatistics());
    }

    private static String range(DoubleSummaryStatistics values) {
        String low = compact(values.getMin());
        return values.getMin() == values.getMax() ? low : low + "-" + compact(values.getMax());
    }

    /** The rows under {@link #HEADER}, columns aligned (the node left, figures right). */
    static String table(List<Row> rows) {
        int[] widths = new int[HEADER.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = HEADER.get(c).length();
        }
        for (Row row : rows) {
            for (int c = 0; c < row.cells().size() && row.note() == null; c++) {
                widths[c] = Math.max(widths[c], row.cells().get(c).length());
            }
        }
        StringBuilder text = new StringBuilder();
        line(HEADER, null, widths, text);
        rows.forEach(row -> line(row.cells(), row.note(), widths, text));
        return text.toString();
    }

    private static void line(List<String> cells, String note, int[] widths, StringBuilder text) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            String format = c == 0 ? "%-" + widths[c] + "s" : "  %" + widths[c] + "s";
            line.append(String.format(Locale.ROOT, format, cells.get(c)));
        }
        if (note != null) {
            line.append("  ").append(note);
        }
        text.append(line.toString().stripTrailing()).append('\n');
    }

    /** Per GMS partition: the leader(s) and terms the daemons follow, with how many, and how many are cut off. */
    static List<String> gmsLines(List<Sample> samples) {
        Map<Integer, Map<String, Integer>> following = new TreeMap<>();
        for (Sample sample : samples) {
            if (sample.ok() && sample.stats().gms() != null) {
                sample.stats().gms().forEach((partition, link) -> following
                        .computeIfAbsent(partition, p -> new TreeMap<>())
                        .merge(link.up() ? link.leader() + " term " + link.term() : "down", 1, Integer::sum));
            }
        }
        List<String> lines = new ArrayList<>();
        following.forEach((partition, seen) -> {
            List<String> parts = new ArrayList<>();
            seen.forEach((what, count) -> parts.add(what + " (" + count + (count == 1 ? " node)" : " nodes)")));
            lines.add("gms p" + partition + ": " + String.join(", ", parts));
        });
        return lines;
    }

    private static String gms(Map<Integer, NodeStats.GmsLink> links) {
        if (links == null || links.isEmpty()) {
            return NONE;
        }
        long up = links.values().stream().filter(NodeStats.GmsLink::up).count();
        long term = links.values().stream().mapToLong(NodeStats.GmsLink::term).max().orElse(0);
        return up + "/" + links.size() + " t" + term;
    }

    private static String rate(CounterRates rates, io.ricochet.engine.Counter counter) {
        return rates == null ? NONE : compact(rates.perSecond(counter));
    }

    private static String rate(CounterRates rates, CounterRole role) {
        return rates == null ? NONE : compact(rates.perSecond(role));
    }

    /**
     * {@code recovered}'s share of this interval's recoveries (by repairs and by NAK), in percent; "-" if there were
     * none.
     */
    private static String share(CounterRates rates, long recovered) {
        if (rates == null) {
            return NONE;
        }
        long all = rates.delta(CounterRole.RECOVERED_BY_REPAIR) + rates.delta(EngineCounter.RECOVERED_BY_NAK);
        return all == 0 ? NONE : String.format(Locale.ROOT, "%.0f", PERCENT * recovered / all);
    }

    private static String total(NodeStats s, String counter) {
        Long value = s.counters() == null ? null : s.counters().get(counter);
        return value == null ? NONE : compact(value);
    }

    /** A number in at most 4 or 5 characters: 7, 0.5, 312, 4.2k, 37k, 1.5M; NaN as "-". */
    static String compact(double value) {
        double v = Math.abs(value);
        if (Double.isNaN(value)) {
            return NONE;
        } else if (v < 10) {
            return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                    : String.format(Locale.ROOT, "%.1f", value);
        } else if (v < 1_000) {
            return String.format(Locale.ROOT, "%.0f", value);
        } else if (v < 10_000) {
            return String.format(Locale.ROOT, "%.1fk", value / 1e3);
        } else if (v < 1e6) {
            return String.format(Locale.ROOT, "%.0fk", value / 1e3);
        } else if (v < 1e7) {
            return String.format(Locale.ROOT, "%.1fM", value / 1e6);
        }
        return String.format(Locale.ROOT, "%.0fM", value / 1e6);
    }

    /** Milliseconds with a precision that suits their size: 0.42, 3.10, 27.5, 130. */
    static String millis(double ms) {
        String format = ms < 10 ? "%.2f" : ms < 100 ? "%.1f" : "%.0f";
        return String.format(Locale.ROOT, format, ms);
    }
}
