package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The membership state classes stay free of Netty, sockets and clocks, so they are tested without a network. */
class StateRulesTest {
    private static final List<String> PURE = List.of(
            "MembershipState", "GroupState", "Registration", "MulticastPool", "Update", "GmsRefusal");

    @Test
    void shouldKeepTheStateClassesFreeOfNettyAndClocks() throws IOException {
        List<String> violations = new ArrayList<>();
        for (String name : PURE) {
            Path file = Path.of("src/main/java/io/ricochet/gms", name + ".java");
            for (String line : Files.readAllLines(file)) {
                if (line.matches(".*(import io\\.netty|System\\.nanoTime|currentTimeMillis|Instant\\.now"
                        + "|java\\.net\\.Socket|Thread\\.sleep).*")) {
                    violations.add(name + ": " + line.trim());
                }
            }
        }
        assertEquals(List.of(), violations);
    }
}
