package io.ricochet.bench.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.support.Directories;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The release archives `mvn package` builds (ricochet-bench's pom): what the tarball and the Debian package hold,
 * and that their launchers start from anywhere. The package is only read and extracted (dpkg-deb), never installed.
 */
class DistributionSystemTest {
    private static final List<String> LAUNCHERS = List.of("ricochet", "ricochet-gms", "ricochet-fd");
    private static final List<String> JARS = List.of("ricochet.jar", "ricochet-gms.jar", "ricochet-fd.jar");
    private static final List<String> UNITS = List.of("ricochetd.service", "ricochet-gms.service",
            "ricochet-fd@.service");

    @Test
    void tarballHoldsLaunchersJarsSampleConfigsUnitsAndClients() throws IOException {
        List<String> entries = Release.tarballEntries().stream()
                .map(e -> e.substring(e.indexOf('/') + 1)).collect(Collectors.toList());
        for (String launcher : LAUNCHERS) {
            assertTrue(entries.contains("bin/" + launcher), "bin/" + launcher + " in " + entries);
        }
        for (String jar : JARS) {
            assertTrue(entries.contains("lib/" + jar), "lib/" + jar + " in " + entries);
        }
        assertTrue(entries.contains("lib/run-jar.sh"), "lib/run-jar.sh in " + entries);
        for (String conf : List.of("ricochetd.properties", "gms.env", "fd-rack-1.env", "90-ricochet.conf")) {
            assertTrue(entries.contains("conf/" + conf), "conf/" + conf + " in " + entries);
        }
        for (String unit : UNITS) {
            assertTrue(entries.contains("systemd/" + unit), "systemd/" + unit + " in " + entries);
        }
        assertTrue(entries.contains("clients/ricochet-client.jar"), "the client jar in " + entries);
        assertTrue(entries.contains("clients/ricochet_client.py"), "the Python client in " + entries);
        assertFalse(entries.stream().anyMatch(e -> e.contains("bench")), "no bench code in the release: " + entries);
        assertTrue(entries.contains("README"), "a README at the top in " + entries);
        assertTrue(entries.contains("copyright"), "a copyright file at the top in " + entries);
    }

    /** One copy of each library: no class is in two jars of lib/, and the programs' jars are manifests only. */
    @Test
    void tarballLibHoldsEachClassOnceAndEachProgramsJarNamesOnlyWhatItUses() throws IOException {
        Path lib = Release.tarballHome().resolve("lib");
        Map<String, String> jarOf = new HashMap<>();
        try (var jars = Files.list(lib)) {
            for (Path path : jars.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList())) {
                try (JarFile jar = new JarFile(path.toFile())) {
                    for (String name : jar.stream().map(e -> e.getName())
                            .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/")
                                    && !n.endsWith("module-info.class")).collect(Collectors.toList())) {
                        String other = jarOf.put(name, path.getFileName().toString());
                        assertTrue(other == null, name + " is in both " + other + " and " + path.getFileName());
                    }
                }
            }
        }
        for (String program : JARS) {
            try (JarFile jar = new JarFile(lib.resolve(program).toFile())) {
                assertTrue(jar.stream().noneMatch(e -> e.getName().endsWith(".class")), program + " holds no class");
                String classPath = jar.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
                for (String entry : classPath.split(" ")) {
                    assertTrue(Files.isRegularFile(lib.resolve(entry)), program + " names lib/" + entry);
                }
                if (!program.equals("ricochet.jar")) {
                    assertFalse(classPath.contains("jackson") || classPath.contains("HdrHistogram"),
                            program + " names only what the server uses: " + classPath);
                }
            }
        }
    }

    /**
     * The GMS and the detectors run without the daemon's code: their class paths name ricochet-common (the control
     * protocol, frames, authentication) and not ricochet-core (daemon, engines, simulator, API, CLI), and jdeps finds
     * nothing any program's jars use missing from its class path.
     */
    @Test
    void serversRunWithoutTheDaemonsCodeAndEveryProgramHasWhatItUses() throws IOException {
        Path lib = Release.tarballHome().resolve("lib");
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        for (String program : JARS) {
            String classPath;
            try (JarFile jar = new JarFile(lib.resolve(program).toFile())) {
                classPath = jar.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            }
            List<String> entries = List.of(classPath.split(" "));
            boolean server = !program.equals("ricochet.jar");
            assertEquals(server, entries.stream().noneMatch(e -> e.startsWith("ricochet-core-")),
                    program + ": ricochet-core only for the daemon and its tools: " + classPath);
            assertTrue(entries.stream().anyMatch(e -> e.startsWith("ricochet-common-")), program + ": " + classPath);
            // Each of the project's jars on the class path (the program's own and ricochet-common, and core for
            // the daemon) against the rest of it: the libraries' own optional dependencies are not the question.
            for (String ours : entries.stream().filter(e -> e.startsWith("ricochet")).collect(Collectors.toList())) {
                String others = entries.stream().filter(e -> !e.equals(ours)).map(e -> lib.resolve(e).toString())
                        .collect(Collectors.joining(java.io.File.pathSeparator));
                StringWriter out = new StringWriter();
                int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "--multi-release", "17",
                        "--missing-deps", "-cp", others, lib.resolve(ours).toString());
                assertEquals(0, exit, out.toString());
                assertEquals("", out.toString().strip(), program + ": what " + ours + " uses is missing from "
                        + "its class path");
            }
        }
    }

    /** One version string: the archives' names and every program's -V. */
    @Test
    void launchersPrintTheVersionTheArchivesAreNamedWith() throws IOException {
        String tarball = Release.tarball().getFileName().toString();
        String version = tarball.substring("ricochet-".length(), tarball.length() - ".tar.gz".length());
        // Debian's form of the version (jdeb's [[version]]: '~' sorts a snapshot before its release).
        String debian = version.replace('-', '~');
        assertEquals("ricochet_" + debian + "_all.deb", Release.deb().getFileName().toString());
        Release.requireDpkgDeb();
        assertTrue(control("control").contains("\nVersion: " + debian + "\n"), control("control"));
        for (String launcher : LAUNCHERS) {
            Command result = Command.run(Release.TARGET, javaOnPathOnly(),
                    List.of(Release.tarballHome().resolve("bin").resolve(launcher).toString(), "-V"));
            assertEquals(0, result.exit(), result.output());
            assertEquals(launcher + " " + version, result.output().strip());
        }
    }

    @Test
    void tarballLaunchersPrintTheirUsageFromAnyDirectoryAndThroughALink() throws IOException {
        Path home = Release.tarballHome();
        Path elsewhere = Files.createTempDirectory("release-cwd");
        try {
            for (String launcher : LAUNCHERS) {
                Path link = elsewhere.resolve(launcher);
                Files.createSymbolicLink(link, home.resolve("bin").resolve(launcher));
                assertUsage(launcher, elsewhere, javaOnPathOnly(), link.toString());
            }
        } finally {
            Directories.deleteTree(elsewhere);
        }
    }

    @Test
    void tarballUnitsStartTheReleaseJarsAsTypeExec() throws IOException {
        Path home = Release.tarballHome();
        for (String unit : UNITS) {
            String text = Files.readString(home.resolve("systemd").resolve(unit));
            assertUnit(unit, text, "/opt/ricochet/lib/");
        }
    }

    @Test
    void debianPackageInstallsUnderUsrShareWithLinksConfigAndUnits() throws IOException {
        Release.requireDpkgDeb();
        String contents = Command.ok(Release.TARGET, "dpkg-deb", "--contents", Release.deb().toString());
        for (String launcher : LAUNCHERS) {
            assertTrue(contents.contains("./usr/share/ricochet/bin/" + launcher), launcher + " in\n" + contents);
            assertTrue(contents.contains("./usr/bin/" + launcher + " -> /usr/share/ricochet/bin/" + launcher),
                    "/usr/bin/" + launcher + " links to the launcher in\n" + contents);
        }
        for (String jar : JARS) {
            assertTrue(contents.contains("./usr/share/ricochet/lib/" + jar), jar + " in\n" + contents);
        }
        for (String unit : UNITS) {
            assertTrue(contents.contains("./lib/systemd/system/" + unit), unit + " in\n" + contents);
        }
        assertTrue(contents.contains("./etc/ricochet/ricochetd.properties"), "the daemon's settings in\n" + contents);
        assertTrue(contents.contains("./usr/share/doc/ricochet/copyright"), "Debian's copyright file in\n" + contents);
        assertTrue(contents.contains("./usr/share/doc/ricochet/README"), "the README in\n" + contents);
        assertEquals("/etc/ricochet/ricochetd.properties", control("conffiles").strip());
    }

    @Test
    void debianPackageCreatesTheSystemUserAndReloadsSystemd() throws IOException {
        Release.requireDpkgDeb();
        String control = control("control");
        assertTrue(control.contains("Package: ricochet"), control);
        assertTrue(control.contains("Architecture: all"), control);
        assertTrue(control.contains("Depends: adduser"), control);
        String postinst = control("postinst");
        assertTrue(postinst.contains("getent passwd ricochet"), postinst);
        assertTrue(postinst.contains("adduser --system --group"), postinst);
        assertTrue(postinst.contains("systemctl daemon-reload"), postinst);
        assertFalse(postinst.contains("systemctl enable") || postinst.contains("systemctl start"),
                "the package starts nothing before the host is configured:\n" + postinst);
        assertTrue(control("prerm").contains("systemctl stop ricochetd.service"), control("prerm"));
        for (String script : List.of("postinst", "prerm", "postrm")) {
            assertEquals(0, Command.run(Release.TARGET, Map.of(), List.of("sh", "-n", controlFile(script)
                    .toString())).exit(), script + " is valid sh");
        }
    }

    @Test
    void extractedPackageLaunchersPrintTheirUsageAndUnitsNameItsJars() throws IOException {
        Path root = Release.debRoot();
        for (String launcher : LAUNCHERS) {
            assertUsage(launcher, Release.TARGET, javaOnPathOnly(),
                    root.resolve("usr/share/ricochet/bin").resolve(launcher).toString());
        }
        for (String unit : UNITS) {
            assertUnit(unit, Files.readString(root.resolve("lib/systemd/system").resolve(unit)),
                    "/usr/share/ricochet/lib/");
        }
    }

    /** The package's control file {@code name}. */
    private static String control(String name) throws IOException {
        return Files.readString(controlFile(name));
    }

    private static Path controlFile(String name) throws IOException {
        return Release.debControl().resolve(name);
    }

    private static void assertUsage(String launcher, Path dir, Map<String, String> env, String path) {
        Command result = Command.run(dir, env, List.of(path, "--help"));
        assertEquals(0, result.exit(), path + " --help:\n" + result.output());
        assertTrue(result.output().startsWith("Usage: " + launcher + " "), path + " --help:\n" + result.output());
    }

    private static void assertUnit(String unit, String text, String lib) {
        assertTrue(text.contains("\nType=exec\n"), unit + " is Type=exec:\n" + text);
        assertTrue(text.contains("\nUser=ricochet\n"), unit + " runs as ricochet:\n" + text);
        String jar = unit.startsWith("ricochetd") ? "ricochet.jar" : unit.startsWith("ricochet-gms")
                ? "ricochet-gms.jar" : "ricochet-fd.jar";
        assertTrue(text.contains("-jar " + lib + jar), unit + " runs " + lib + jar + ":\n" + text);
    }

    /** No JAVA_HOME: the launcher finds java on the PATH, as on a host with a distribution's JRE. */
    private static Map<String, String> javaOnPathOnly() {
        return Map.of("JAVA_HOME", "", "PATH", Path.of(System.getProperty("java.home"), "bin") + ":/usr/bin:/bin");
    }
}
