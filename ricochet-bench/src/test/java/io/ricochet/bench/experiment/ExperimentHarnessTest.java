package io.ricochet.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.sim.SimResult;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness end to end on small settings: runs, CSV, PNG, the results.md section, determinism. */
class ExperimentHarnessTest {
    private static final Scale TINY = new Scale(0.3, 2, true);
    private static final Setting SMALL = Setting.of(8, 4, 4).loss("uniform:0.05");

    @TempDir
    Path docs;

    private static LineFigure smallFigure() {
        List<Point> points = List.of(new Point("LEC", 2, SMALL.degree(2)), new Point("LEC", 4, SMALL));
        return LineFigure.builder("t", "Test figure", "(n = 8, d = *, s = 4)")
                .panel(new Panel("(a) recovery", "Groups per Node", "d", true, false, points,
                        List.of(Metric.LEC_PERCENT, Metric.OVERHEAD_PERCENT), Metric.LEC_LATENCY_US))
                .paperSays("nothing")
                .paper("LEC", "d", 4, "a paper value")
                .build();
    }

    private static RunInfo info(Scale scale) {
        return new RunInfo("test machine", "scripts/bench experiment --figure t", scale, Instant.EPOCH, 1);
    }

    @Test
    void aFigureBecomesCsvPngAndAResultsSection() throws Exception {
        LineFigure figure = smallFigure();
        ReportWriter writer = new ReportWriter(docs);
        Files.writeString(writer.results(), "# Results\n\nHand-written commentary.\n");
        try (TrialRunner runner = new TrialRunner(TINY, 2)) {
            runner.runAll(figure.settings(), ProgressLine.silent());
            FigureOutput output = figure.complete(runner);
            writer.write(figure, output, info(TINY));

            List<String> csv = Files.readAllLines(writer.csv(figure));
            assertEquals(3, csv.size(), "header and one row per point");
            assertTrue(csv.get(0).startsWith("series,x_name,x,lec_recovery_pct_mean,lec_recovery_pct_sd"));
            double lecMean = runner.stat(SMALL, Metric.LEC_PERCENT).mean();
            assertTrue(csv.get(2).startsWith("LEC,d,4," + lecMean + ","), csv.get(2));

            BufferedImage png = ImageIO.read(writer.png(figure).toFile());
            assertNotNull(png, "a readable PNG");
            assertEquals(Plots.PANEL_WIDTH, png.getWidth());
            assertEquals(Plots.PANEL_HEIGHT, png.getHeight());

            String md = Files.readString(writer.results());
            assertTrue(md.startsWith("# Results\n\nHand-written commentary.\n"), "commentary kept");
            assertTrue(md.contains(ReportWriter.GENERATED_HEADING));
            assertTrue(md.contains("![Test figure](figures/figure-t.png)"));
            assertTrue(md.contains("| LEC | d = 4 |"));
            assertTrue(md.contains("a paper value"));
            assertTrue(md.contains("seeds 1-2; 0.3 s of measured traffic per run (the paper: 30 s), --quick"));

            // A second run replaces the section rather than adding one; text after it stays.
            Files.writeString(writer.results(), md + "\nMore commentary.\n");
            writer.write(figure, output, info(TINY));
            String again = Files.readString(writer.results());
            assertEquals(1, again.split(Pattern.quote(ReportWriter.begin("t")), -1).length - 1);
            assertTrue(again.endsWith("\nMore commentary.\n"));
        }
    }

    @Test
    void theSameSeedsGiveTheSameNumbersInParallelOrNot() throws Exception {
        List<Setting> settings = List.of(SMALL, SMALL.degree(2), SMALL.protocol(ProtocolChoice.FEC).nak(true));
        try (TrialRunner parallel = new TrialRunner(TINY, 2); TrialRunner serial = new TrialRunner(TINY, 1)) {
            parallel.runAll(settings, ProgressLine.silent());
            serial.runAll(settings, ProgressLine.silent());
            for (Setting s : settings) {
                List<SimResult> a = parallel.results(s);
                List<SimResult> b = serial.results(s);
                for (int i = 0; i < a.size(); i++) {
                    assertEquals(a.get(i).losses(), b.get(i).losses());
                    assertEquals(a.get(i).lecRecovered(), b.get(i).lecRecovered());
                    assertEquals(a.get(i).recoveryLatencyMs(), b.get(i).recoveryLatencyMs());
                }
                assertTrue(a.get(0).losses() > 0, "the setting loses packets");
                assertFalse(a.get(0).losses() == a.get(1).losses() && a.get(0).lecRecoveryLatencyMs()
                        .equals(a.get(1).lecRecoveryLatencyMs()), "two seeds, two different runs");
            }
        }
    }

    @Test
    void figure8PoolsTheSeedsHistogramsAndStaysWithinTheLosses() throws Exception {
        HistogramFigure figure = new HistogramFigure(Setting.of(8, 4, 4).nak(true), new double[] {0.10, 0.20},
                Map.of(0.20, "paper"));
        try (TrialRunner runner = new TrialRunner(TINY, 2)) {
            runner.runAll(figure.settings(), ProgressLine.silent());
            FigureOutput output = figure.complete(runner);
            for (double loss : new double[] {0.10, 0.20}) {
                List<SimResult> runs = runner.results(Setting.of(8, 4, 4).nak(true).loss("uniform:"
                        + Numbers.plain(loss)));
                long recovered = runs.stream().mapToLong(r -> r.lecRecovered() + r.nakRecovered()).sum();
                long inBins = output.csvRows().stream().filter(r -> r.get(0).equals(Numbers.plain(loss)))
                        .mapToLong(r -> Long.parseLong(r.get(3)) + Long.parseLong(r.get(4))).sum();
                assertEquals(recovered, inBins, "every recovery in exactly one bin");
                assertTrue(recovered > 0);
            }
            assertEquals(2, output.panels().size());
            assertTrue(output.table().contains("| 20 % |"));
        }
    }

    @Test
    void figure11TimesTheEngineWithJmhAndTakesXorsFromTheRuns() throws Exception {
        CpuFigure figure = new CpuFigure(List.of(2), Setting.of(16, 2, 4), new JmhPacketTimer(0, 0, 1, 200),
                Map.of(2, "160 µs"));
        try (TrialRunner runner = new TrialRunner(TINY, 2)) {
            runner.runAll(figure.settings(), ProgressLine.silent());
            FigureOutput output = figure.complete(runner);
            List<String> row = output.csvRows().get(0);
            assertEquals("2", row.get(0));
            assertTrue(Double.parseDouble(row.get(1)) > 0, "a measured time per packet");
            assertEquals(runner.stat(Setting.of(16, 2, 4), Metric.XORS_PER_PACKET).mean(),
                    Double.parseDouble(row.get(3)));
        }
    }

    @Test
    void theCatalogueHasEveryFigureOfTheIssue() {
        assertEquals(List.of("8", "9", "10", "11", "12", "13", "14", "15", "compare"), Figures.ids());
        for (Figure f : Figures.all(true)) {
            assertFalse(f.settings().isEmpty(), f.id());
            f.settings().forEach(s -> s.config(1, 1)); // every setting is a valid simulation
        }
        // Figure 14's headline point: bursts of 100 at 1 %, stagger 6.
        assertTrue(Figures.figure14().settings().contains(Figures.REFERENCE.loss("bursty:0.01:100").stagger(6)));
        // Figure 9(b) keeps c = r / 2.
        assertTrue(Figures.figure9().settings().contains(Figures.REFERENCE.rateOfFire(5, 2.5)));
    }

    @Test
    void aPaperValueForAPointTheFigureDoesNotHaveIsRefused() {
        LineFigure.Builder b = LineFigure.builder("x", "X", "setup")
                .panel(Panel.of("p", "Groups per Node", "d", false, List.of(new Point("LEC", 2, SMALL)),
                        Metric.LEC_PERCENT))
                .paper("LEC", "d", 3, "no such point");
        assertThrows(IllegalStateException.class, b::build);
    }
}
