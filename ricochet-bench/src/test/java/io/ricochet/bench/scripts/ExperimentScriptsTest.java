package io.ricochet.bench.scripts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** scripts/experiments/*: --help prints the usage and writes nothing (issue 14: jmh --help rewrote a result). */
class ExperimentScriptsTest {

    @ParameterizedTest
    @ValueSource(strings = {"jmh", "core-results", "protocol-results", "rx-paths", "vs-jgroups", "cluster-vs-sim",
        "daemon-groups", "daemon-overload", "daemon-throughput", "cluster-perturb", "headline", "adaptive-lec-cluster"})
    void shouldPrintUsageAndWriteNothing(String script) throws Exception {
        Path docs = ScriptRun.root().resolve("docs/results");
        String before = snapshot(docs);
        ScriptRun run = ScriptRun.of(Map.of(), "experiments/" + script, "--help");
        assertEquals(0, run.exitCode(), script + ": " + run.err());
        assertTrue(run.out().contains("Usage") || run.out().contains("usage"), run.out());
        assertEquals(before, snapshot(docs), script + " --help changed docs/results");
    }

    /** Every file under dir with its size and modification time. */
    private static String snapshot(Path dir) throws Exception {
        try (var files = Files.walk(dir)) {
            return files.map(p -> p + " " + p.toFile().length() + " " + p.toFile().lastModified()).sorted()
                    .reduce("", (a, b) -> a + b + "\n");
        }
    }
}
