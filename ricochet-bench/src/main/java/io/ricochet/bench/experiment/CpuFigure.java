package io.ricochet.bench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Figure 11: the engine's CPU time per data packet against groups per node, timed with JMH, and the XORs per
 * data packet, counted in the simulator at the same (n = 64, d, s = 10), uniform 1 % setting as Figure 10.
 */
public final class CpuFigure implements Figure {
    private final List<Integer> degrees;
    private final Setting base;
    private final JmhPacketTimer timer;
    private final Map<Integer, String> paper;

    public CpuFigure(List<Integer> degrees, Setting base, JmhPacketTimer timer, Map<Integer, String> paper) {
        this.degrees = List.copyOf(degrees);
        this.base = base;
        this.timer = timer;
        this.paper = Map.copyOf(paper);
    }

    @Override
    public String id() {
        return "11";
    }

    @Override
    public String title() {
        return "Figure 11: CPU time and XORs per data packet";
    }

    @Override
    public String setup() {
        return "(n = 64, d = *, s = 10), Loss Model: Uniform, 1%. CPU time: one engine fed 1 KB data packets "
                + "round-robin over its groups, no loss (JMH, EnginePerPacketBenchmark); XORs: the simulated runs";
    }

    @Override
    public String paperSays() {
        return "\"per-packet processing time goes from 160 microseconds for 2 groups to 300 microseconds for 1024\"; "
                + "\"the number of XORs stays under 5 - the value of c\" (section 5.3; 1.3 GHz machines)";
    }

    private Setting setting(int degree) {
        return base.degree(degree);
    }

    @Override
    public List<Setting> settings() {
        return degrees.stream().map(this::setting).toList();
    }

    @Override
    public FigureOutput complete(TrialRunner runner) throws ExperimentException {
        SortedMap<Integer, JmhPacketTimer.Timing> timings = timer.time(degrees);
        double[][] cpu = new double[3][degrees.size()];
        double[][] xors = new double[3][degrees.size()];
        List<List<String>> csv = new ArrayList<>();
        MarkdownTable table = new MarkdownTable(List.of("groups per node", "µs per data packet (JMH, ±99.9 % CI)",
                "XORs per data packet", "paper"));
        for (int i = 0; i < degrees.size(); i++) {
            int d = degrees.get(i);
            JmhPacketTimer.Timing t = timings.get(d);
            Stat x = runner.stat(setting(d), Metric.XORS_PER_PACKET);
            cpu[0][i] = d;
            cpu[1][i] = t.meanNs() / 1000;
            cpu[2][i] = t.errorNs() / 1000;
            xors[0][i] = d;
            xors[1][i] = x.mean();
            xors[2][i] = x.sd();
            csv.add(List.of(Integer.toString(d), Double.toString(t.meanNs() / 1000),
                    Double.toString(t.errorNs() / 1000), Double.toString(x.mean()), Double.toString(x.sd())));
            table.row(List.of(Integer.toString(d), Numbers.fixed(t.meanNs() / 1000, 3) + " ± "
                    + Numbers.fixed(t.errorNs() / 1000, 3), x.format(3), paper.getOrDefault(d, "")));
        }
        Map<String, double[][]> cpuLine = new LinkedHashMap<>();
        cpuLine.put("time per data packet", cpu);
        Map<String, double[][]> xorLine = new LinkedHashMap<>();
        xorLine.put("XORs per data packet", xors);
        List<Chart<?, ?>> charts = List.of(
                Plots.measured("Per-packet processing time", "Groups per Node", "Microseconds", true, cpuLine),
                Plots.measured("XORs per Data Packet", "Groups per Node", "Number", true, xorLine));
        return new FigureOutput(List.of("degree", "us_per_packet", "us_error_999", "xors_per_packet_mean",
                "xors_per_packet_sd"), csv, charts, table.toString());
    }
}
