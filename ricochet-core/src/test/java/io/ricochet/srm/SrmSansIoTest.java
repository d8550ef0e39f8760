package io.ricochet.srm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SRM package stays sans-I/O and deterministic, like the engine packages: no clock, no unseeded randomness, no
 * sockets, threads or Netty (a source scan, so it also guards code no test reaches).
 */
class SrmSansIoTest {
    private static final Pattern BANNED = Pattern.compile(
            "System\\.nanoTime|System\\.currentTimeMillis|Instant\\.now|Thread\\.sleep|Math\\.random"
                    + "|ThreadLocalRandom|new Random\\(|new SplittableRandom\\(|import io\\.netty|import java\\.net\\."
                    + "|import java\\.nio\\.channels|import java\\.util\\.concurrent|new Thread\\(");

    @Test
    void shouldKeepTheSrmPackageFreeOfClocksSocketsThreadsAndUnseededRandomness() throws IOException {
        List<String> violations = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("src/main/java/io/ricochet/srm"))) {
            files = walk.filter(f -> f.toString().endsWith(".java")).toList();
        }
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (BANNED.matcher(lines.get(i)).find()) {
                    violations.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertTrue(files.size() > 10, "scanned only " + files.size() + " files: is the working directory the module?");
        assertEquals(List.of(), violations);
    }
}
