package io.ricochet.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoriesTest {
    @TempDir
    Path dir;

    @Test
    void shouldDeleteATreeAndNotWhatALinkInItPointsTo() throws IOException {
        Path outside = Files.writeString(dir.resolve("outside.txt"), "kept");
        Path root = Files.createDirectories(dir.resolve("root/a/b"));
        Files.writeString(root.resolve("file"), "x");
        Files.createSymbolicLink(dir.resolve("root/link"), outside);
        Directories.deleteTree(dir.resolve("root"));
        assertFalse(Files.exists(dir.resolve("root")));
        assertTrue(Files.exists(outside), "the link's target is not deleted");
        Directories.deleteTree(dir.resolve("root"));   // nothing there: a no-op
    }
}
