package io.ricochet.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Directory chores the tools share. */
public final class Directories {
    private Directories() {
    }

    /** Deletes {@code root} and everything below it; nothing if it does not exist. Symbolic links are not followed. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : paths) {
            Files.delete(p);
        }
    }
}
