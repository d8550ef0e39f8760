package io.ricochet.engine;

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
 * The protocol packages stay sans-I/O and deterministic: no clock, no unseeded randomness, no sockets, threads or
 * Netty. Time is an argument; randomness is injected. (A source scan, so it also guards code no test reaches.)
 */
class SansIoRulesTest {
    private static final List<String> PACKAGES = List.of("engine", "lec", "nak", "wire", "loss", "srm", "fec", "pbcast");
    private static final Pattern BANNED = Pattern.compile(
            "System\\.nanoTime|System\\.currentTimeMillis|Instant\\.now|Thread\\.sleep|Math\\.random"
                    + "|ThreadLocalRandom|new Random\\(|import io\\.netty|import java\\.net\\."
                    + "|import java\\.nio\\.channels|import java\\.util\\.concurrent\\.(Executor|Scheduled)"
                    + "|new Thread\\(");

    @Test
    void shouldKeepTheProtocolPackagesFreeOfClocksSocketsAndUnseededRandomness() throws IOException {
        Path root = Path.of("src/main/java/io/ricochet");
        List<String> violations = new ArrayList<>();
        int scanned = 0;
        for (String pkg : PACKAGES) {
            try (Stream<Path> files = Files.walk(root.resolve(pkg))) {
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
        }
        assertTrue(scanned > 20, "scanned only " + scanned + " files: is the working directory the module?");
        assertEquals(List.of(), violations);
    }
}
