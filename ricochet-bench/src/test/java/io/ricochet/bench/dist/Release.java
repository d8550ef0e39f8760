package io.ricochet.bench.dist;

import io.ricochet.support.Directories;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The archives `mvn package` made in target/ (the tarball and the Debian package), each extracted once per test
 * JVM into target/release-test and shared by the tests that read or run them.
 */
final class Release {
    static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path EXTRACTED = TARGET.resolve("release-test");
    private static Path tarballHome;
    private static Path debRoot;
    private static Path debControl;

    private Release() {
    }

    /** target/ricochet-VERSION.tar.gz. */
    static Path tarball() throws IOException {
        return one("ricochet-*.tar.gz");
    }

    /** target/ricochet_VERSION_all.deb. */
    static Path deb() throws IOException {
        return one("ricochet_*_all.deb");
    }

    /** The tarball's entries, as tar lists them (ricochet-VERSION/bin/ricochet, ...). */
    static List<String> tarballEntries() throws IOException {
        return List.of(Command.ok(TARGET, "tar", "-tzf", tarball().toString()).split("\n"));
    }

    /** The release's top folder (ricochet-VERSION, with bin/, lib/, ...), extracted from the tarball once. */
    static synchronized Path tarballHome() throws IOException {
        if (tarballHome == null) {
            Path dir = EXTRACTED.resolve("tarball");
            Directories.deleteTree(dir);
            Files.createDirectories(dir);
            Command.ok(dir, "tar", "-xzf", tarball().toString());
            try (DirectoryStream<Path> top = Files.newDirectoryStream(dir)) {
                tarballHome = top.iterator().next();
            }
        }
        return tarballHome;
    }

    /** The file tree of the Debian package, extracted once with dpkg-deb -x (no install: no root, no scripts). */
    static synchronized Path debRoot() throws IOException {
        if (debRoot == null) {
            requireDpkgDeb();
            Path dir = EXTRACTED.resolve("deb");
            Directories.deleteTree(dir);
            Files.createDirectories(dir);
            Command.ok(dir, "dpkg-deb", "-x", deb().toString(), dir.toString());
            debRoot = dir;
        }
        return debRoot;
    }

    /** The Debian package's control files (control, conffiles, postinst, ...), extracted once with dpkg-deb -e. */
    static synchronized Path debControl() throws IOException {
        if (debControl == null) {
            requireDpkgDeb();
            Path dir = EXTRACTED.resolve("deb-control");
            Directories.deleteTree(dir);
            Command.ok(TARGET, "dpkg-deb", "-e", deb().toString(), dir.toString());
            debControl = dir;
        }
        return debControl;
    }

    static void requireDpkgDeb() {
        Command.requireTool("dpkg-deb", "install it ('apt-get install dpkg') to check the Debian package");
    }

    private static Path one(String glob) throws IOException {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(TARGET, glob)) {
            files.forEach(found::add);
        }
        if (found.size() != 1) {
            throw new AssertionError("expected one " + glob + " in " + TARGET + " (made by 'mvn package'), found "
                    + found);
        }
        return found.get(0);
    }
}
