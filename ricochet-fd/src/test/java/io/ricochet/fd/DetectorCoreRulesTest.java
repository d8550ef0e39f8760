package io.ricochet.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The detector core stays sans-I/O, so its verdicts are a pure function of heartbeat history and time: no clock, no
 * unseeded randomness, no sockets, threads or Netty in the classes {@link FailureDetector} is made of. (A source
 * scan, like core's {@code SansIoRulesTest}.)
 */
class DetectorCoreRulesTest {
    private static final List<String> CORE = List.of(
            "FailureDetector.java", "Ping.java", "AckResult.java", "TransitionListener.java");
    private static final Pattern BANNED = Pattern.compile(
            "System\\.nanoTime|System\\.currentTimeMillis|Instant\\.now|Thread\\.sleep|Math\\.random"
                    + "|ThreadLocalRandom|new Random\\(|import io\\.netty|import java\\.net\\."
                    + "|import java\\.nio\\.channels|import java\\.util\\.concurrent|new Thread\\(");

    @Test
    void shouldKeepTheDetectorCoreFreeOfClocksSocketsAndThreads() throws IOException {
        Path dir = Path.of("src/main/java/io/ricochet/fd");
        List<String> violations = new ArrayList<>();
        for (String name : CORE) {
            List<String> lines = Files.readAllLines(dir.resolve(name));
            for (int i = 0; i < lines.size(); i++) {
                if (BANNED.matcher(lines.get(i)).find()) {
                    violations.add(name + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertEquals(List.of(), violations);
    }
}
