package io.ricochet.bench.fountain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.BenchCli;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayeredCommandTest {
    @TempDir
    Path dir;

    private static int run(StringWriter err, String... args) {
        return BenchCli.run(err, args);
    }

    @Test
    void writesTheLevelsOverTimeTheirPlotAndTheTable() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "layered", "--seconds", "40", "--docs", dir.toString()), err.toString());
        Path figures = dir.resolve("figures");
        List<String> csv = Files.readAllLines(figures.resolve("layered.csv"));
        assertEquals("receiver,time_s,level,fair_level", csv.get(0));
        // Each receiver ends the run at its fair level; the last line is the halved receiver's, fair level 3.
        assertTrue(csv.get(csv.size() - 1).matches("halved,40\\.000000,3,3"), csv.get(csv.size() - 1));
        assertTrue(Files.size(figures.resolve("layered.png")) > 0);
        String table = Files.readString(figures.resolve("layered.md"));
        assertTrue(table.contains("| r4 | 2400 | 4 |"), table);
        assertTrue(table.contains("| halved | 2400, 1200 from 20 s | 4, then 3 |"), table);
    }

    @Test
    void badOptionsAreRefusedWithTheRule() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "layered", "--layers", "4", "--docs", dir.toString()));
        assertTrue(err.toString().contains("--layers 4: must be in 6..16"), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(2, run(err2, "layered", "--docs", dir.resolve("none").toString()));
        assertTrue(err2.toString().contains("no such folder"), err2.toString());
    }
}
