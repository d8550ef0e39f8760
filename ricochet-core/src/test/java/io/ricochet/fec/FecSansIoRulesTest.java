package io.ricochet.fec;

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
 * The FEC package keeps the engine rules of the other protocol packages (see {@code engine.SansIoRulesTest}): no
 * clock, no unseeded randomness, no sockets, threads or Netty. A source scan, so it also guards untested code.
 */
class FecSansIoRulesTest {
    private static final Pattern BANNED = Pattern.compile(
            "System\\.nanoTime|System\\.currentTimeMillis|Instant\\.now|Thread\\.sleep|Math\\.random"
                    + "|ThreadLocalRandom|new Random\\(|import io\\.netty|import java\\.net\\."
                    + "|import java\\.nio\\.channels|import java\\.util\\.concurrent\\.(Executor|Scheduled)"
                    + "|new Thread\\(");

    @Test
    void shouldKeepTheFecPackageFreeOfClocksSocketsAndUnseededRandomness() throws IOException {
        Path root = Path.of("src/main/java/io/ricochet/fec");
        List<String> violations = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                scanned++;
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (BANNED.matcher(lines.get(i)).find()) {
                        violations.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        assertTrue(scanned >= 15, "scanned only " + scanned + " files: is the working directory the module?");
        assertEquals(List.of(), violations);
    }
}
