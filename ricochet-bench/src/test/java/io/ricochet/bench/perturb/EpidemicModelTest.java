package io.ricochet.bench.perturb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.BenchCli;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The epidemic model of {@code bench bimodal-model}: exact chain, its limits, and the Monte Carlo that checks it. */
class EpidemicModelTest {
    @TempDir
    Path dir;

    @Test
    void shouldSumToOneAndHitTheObviousLimits() {
        double[] p = new EpidemicModel(40, 1, 8, 0.05, 0.01, 1).distribution();
        assertEquals(1.0, Arrays.stream(p).sum(), 1e-9);
        // A multicast that reaches everyone: nothing left to gossip.
        assertEquals(1.0, new EpidemicModel(40, 1, 8, 0.05, 0.5, 0).distribution()[39], 1e-12);
        // Multicast reaches nobody and the sender always crashes: nobody ever gets it.
        assertEquals(1.0, new EpidemicModel(40, 1, 8, 0.05, 1, 1).distribution()[0], 1e-12);
        // No rounds: the multicast alone, binomial.
        assertEquals(EpidemicModel.binomial(39, 0.5)[20], new EpidemicModel(40, 1, 0, 0, 0, 0.5).distribution()[20],
                1e-15);
    }

    @Test
    void shouldBeBimodalWhenTheMulticastFailsAndTheSenderMayCrash() {
        double[] modes = BimodalModelCommand.modes(new EpidemicModel(50, 1, 20, 0.05, 0.001, 1).distribution());
        // The lower mode carries about the crash probability; the middle far less than either mode.
        assertTrue(modes[0] > 0.0005 && modes[0] < 0.01, Arrays.toString(modes));
        assertTrue(modes[2] > 0.9, Arrays.toString(modes));
        assertTrue(modes[1] < modes[0] && modes[1] < modes[2], Arrays.toString(modes));
    }

    @Test
    void shouldAgreeWithTheMonteCarloOfTheSameModel() {
        EpidemicModel model = new EpidemicModel(30, 2, 5, 0.1, 0.05, 1);
        double[] exact = model.distribution();
        int trials = 100_000;
        long[] counts = model.monteCarlo(trials, 7);
        double[] modesExact = BimodalModelCommand.modes(exact);
        double[] f = Arrays.stream(counts).mapToDouble(c -> c / (double) trials).toArray();
        double[] modesMc = BimodalModelCommand.modes(f);
        double meanExact = 0;
        double meanMc = 0;
        for (int k = 0; k < exact.length; k++) {
            meanExact += k * exact[k];
            meanMc += k * f[k];
        }
        assertEquals(meanExact, meanMc, 0.01 * 29, "mean receivers");
        for (int m = 0; m < 3; m++) {
            assertEquals(modesExact[m], modesMc[m], 0.01, "mode " + m);
        }
        assertEquals(exact[0], f[0], 0.005, "none");
    }

    @Test
    void shouldRefuseBadParametersWithTheFlagName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new EpidemicModel(10, 10, 1, 0, 0, 1));
        assertTrue(e.getMessage().startsWith("--fanout 10"), e.getMessage());
        StringWriter err = new StringWriter();
        assertEquals(2, BenchCli.run(err, "bimodal-model", "--multicast-loss", "1.5", "--docs", dir.toString()));
        assertTrue(err.toString().contains("--multicast-loss 1.5"), err.toString());
    }

    @Test
    void shouldWriteTheFigureFiles() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(0, BenchCli.run(err, "bimodal-model", "--nodes", "20", "--trials", "1000",
                "--docs", dir.toString()), err.toString());
        String table = Files.readString(dir.resolve("figures/bimodal-model.md"));
        assertTrue(table.contains("| 1.0 |"), table);
        assertEquals(1 + 3 * 20, Files.readAllLines(dir.resolve("figures/bimodal-model.csv")).size());
        assertTrue(Files.size(dir.resolve("figures/bimodal-model.png")) > 0);
    }
}
