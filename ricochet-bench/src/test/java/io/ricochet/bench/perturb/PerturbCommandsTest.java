package io.ricochet.bench.perturb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.BenchCli;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code bench perturb} and {@code bench receivers}: their files, and their refusals. */
class PerturbCommandsTest {
    @TempDir
    Path dir;

    private static int run(StringWriter err, String... args) {
        return BenchCli.run(err, args);
    }

    @Test
    void perturbWritesThroughputOverTimeItsPlotAndTheTable() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "perturb", "--protocols", "ricochet,pbcast:grb", "--fractions", "0,0.5",
                "--nodes", "6", "--seconds", "2", "--bin-ms", "500", "--backlog", "10", "--docs", dir.toString()),
                err.toString());
        Path figures = dir.resolve("figures");
        List<String> csv = Files.readAllLines(figures.resolve("perturb.csv"));
        assertEquals("protocol,sleep_fraction,time_s,healthy_msgs_per_s,sleeper_msgs_per_s", csv.get(0));
        assertEquals(1 + 2 * 2 * 4, csv.size());   // 2 protocols x 2 fractions x 4 bins of 500 ms
        assertTrue(csv.get(1).startsWith("ricochet,0.0,0.000,"), csv.get(1));
        assertTrue(csv.get(csv.size() - 1).startsWith("pbcast:grb,0.5,1.500,"), csv.get(csv.size() - 1));
        assertTrue(Files.size(figures.resolve("perturb.png")) > 0);
        String table = Files.readString(figures.resolve("perturb.md"));
        assertTrue(table.contains("| ricochet | 0 % |"), table);
        assertTrue(table.contains("| pbcast:grb | 50 % |"), table);
        // Asleep without a perturbation nothing waits; asleep half the time with a 10-frame buffer, frames drop.
        assertTrue(table.matches("(?s).*\\| ricochet \\| 0 % \\|[^\\n]*\\| 0 / 0 \\| 0 \\|.*"), table);
        assertFalse(table.matches("(?s).*\\| ricochet \\| 50 % \\|[^\\n]*\\| \\d+ / 0 \\|.*"), table);
    }

    @Test
    void receiversWritesBothHistogramsAndRecoveryRaisesTheCounts() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "receivers", "--nodes", "8", "--seconds", "1", "--loss", "uniform:0.1",
                "--docs", dir.toString(), "--name", "r"), err.toString());
        Path figures = dir.resolve("figures");
        List<String> csv = Files.readAllLines(figures.resolve("r.csv"));
        assertEquals("protocol,receivers,messages_before_recovery,messages_after_recovery", csv.get(0));
        assertEquals(1 + 2 * 8, csv.size());     // pbcast and ipmc, 0..7 receivers each
        long pbcastAllBefore = Long.parseLong(csv.get(8).split(",")[2]);
        long pbcastAllAfter = Long.parseLong(csv.get(8).split(",")[3]);
        assertTrue(csv.get(8).startsWith("pbcast,7,"), csv.get(8));
        assertTrue(pbcastAllAfter > pbcastAllBefore, csv.get(8));
        String ipmcAll = csv.get(16);
        assertTrue(ipmcAll.startsWith("ipmc,7,"), ipmcAll);
        assertEquals(ipmcAll.split(",")[2], ipmcAll.split(",")[3]);   // no recovery: after = before
        assertTrue(Files.size(figures.resolve("r.png")) > 0);
        assertTrue(Files.readString(figures.resolve("r.md")).contains("| ipmc |"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "perturb --nodes 2; --nodes 2: must be in 3..64",
        "perturb --sleeper 16; --sleeper 16: must be a node index in 0..15",
        "perturb --fractions 0,1; --fractions 0,1: each value must be in [0.0, 1.0)",
        "perturb --fractions 0,x; 'x' is not a number",
        "perturb --protocols ricochet,,srm; each entry is a protocol name",
        "perturb --protocols ricochet,tcp; 'tcp'",
        "perturb --protocols ricochet:grb; --pbcast-variant grb: applies to --protocol pbcast only",
        "perturb --protocols qsm:0; --qsm-token-interval-ms 0: must be milliseconds in [0.001, 10000]",
        "perturb --protocols qsm:1:2; each entry is a protocol name, pbcast:VARIANT or qsm:TOKEN_MS",
        "perturb --loss sometimes; '--loss': loss model 'sometimes' is not recognised",
        "perturb --bin-ms 1; --bin-ms 1.0: must be in 10..10000",
        "perturb --name a/b; --name a/b: letters, digits, - and _ only",
        "receivers --nodes 200; --nodes 200: must be in 3..128",
        "receivers --protocols pbcast:fast; 'fast' is not one of basic, ipmc, grb, local",
        "receivers --perturb 40:0.1; NODE must be a node index in 0..31"})
    void badOptionsAreRefusedOnOneLine(String command, String expected) {
        StringWriter err = new StringWriter();
        List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--docs", dir.toString()));
        assertEquals(2, run(err, args.toArray(String[]::new)), err.toString());
        String first = err.toString().split("\\R")[0];
        assertTrue(first.contains(expected), first);
        assertFalse(err.toString().contains("Exception"), err.toString());
    }
}
