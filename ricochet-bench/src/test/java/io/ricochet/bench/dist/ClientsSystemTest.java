package io.ricochet.bench.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The two clients a release ships in clients/, each against a GMS and daemon started by the release's own
 * launchers: the lean Java client jar (ricochet-core's classifier `client`) with nothing but slf4j-api beside it,
 * and the Python client of scripts/clients, which follows docs/api.md (this test keeps the two in step).
 */
class ClientsSystemTest {
    private static ReleaseCluster cluster;

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        cluster = new ReleaseCluster(Release.tarballHome());
    }

    @AfterAll
    static void stopCluster() throws IOException, InterruptedException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void clientJarHoldsTheClientWithItsLibrariesRelocatedAndNoLoggingOrCli() throws IOException {
        List<String> entries;
        try (JarFile jar = new JarFile(clientJar().toFile())) {
            entries = jar.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class"))
                    .collect(Collectors.toList());
        }
        assertTrue(entries.contains("io/ricochet/client/RicochetClient.class"), "the client in the jar");
        assertTrue(entries.contains("io/ricochet/api/protocol/ApiFrameCodec.class"), "the protocol in the jar");
        List<String> foreign = entries.stream()
                .filter(n -> !n.startsWith("io/ricochet/client/") && !n.startsWith("io/ricochet/api/")
                        && !n.equals("io/ricochet/engine/Counter.class")
                        && !n.startsWith("io/ricochet/latency/Latency"))
                .collect(Collectors.toList());
        assertEquals(List.of(), foreign, "only the client, the API and their relocated libraries");
        assertTrue(entries.stream().noneMatch(n -> n.startsWith("io/ricochet/api/server/")), "no API server");
    }

    /** Every service file of the jar is for a type in it and names classes in it (none of an absent BlockHound). */
    @Test
    void clientJarServicesNameItsOwnClasses() throws IOException {
        try (JarFile jar = new JarFile(clientJar().toFile())) {
            List<String> services = jar.stream().map(e -> e.getName())
                    .filter(n -> n.startsWith("META-INF/services/") && !n.endsWith("/")).collect(Collectors.toList());
            for (String service : services) {
                String type = service.substring("META-INF/services/".length());
                assertTrue(jar.getEntry(type.replace('.', '/') + ".class") != null, service
                        + ": a service of a type the jar does not hold");
                String text = new String(jar.getInputStream(jar.getEntry(service)).readAllBytes(),
                        StandardCharsets.UTF_8);
                for (String line : text.lines().map(l -> l.replaceAll("#.*", "").strip()).filter(l -> !l.isEmpty())
                        .collect(Collectors.toList())) {
                    assertTrue(jar.getEntry(line.replace('.', '/') + ".class") != null, service + " names " + line
                            + ", which is not in the jar");
                    assertTrue(line.startsWith("io.ricochet."), service + " names a relocated class: " + line);
                }
            }
        }
    }

    @Test
    void javaClientOnTheClientJarAloneSendsAndReceivesItsMessage() throws IOException {
        Path probe = Path.of("src/test/resources/dist/ClientProbe.java").toAbsolutePath();
        String classPath = clientJar() + File.pathSeparator + slf4jApi();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Command result = Command.run(Release.TARGET, Map.of(), List.of(java, "-cp", classPath, probe.toString(),
                "127.0.0.1", "7400", "41"));
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().contains("received probe from node 1"), result.output());
        assertTrue(result.output().contains("received 1048576 bytes whole from node 1"), result.output());
        assertTrue(result.output().contains("stats of node 1, groups [41]"), result.output());
    }

    @Test
    void pythonClientSelfTestOverTcp() throws IOException {
        String output = pythonSelfTest(ReleaseCluster.API, 42);
        assertTrue(output.contains("connected: node 1, protocol version 3, max payload 1023, max message 16777216"),
                output);
        assertTrue(output.contains("received 3 own messages back"), output);
        assertTrue(output.contains("received my 1048576-byte message back whole"), output);
        assertTrue(output.contains("stats: node 1, groups [42]"), output);
        assertTrue(output.contains("self-test passed"), output);
    }

    @Test
    void pythonClientSelfTestOverTheUnixSocket() throws IOException {
        String output = pythonSelfTest("unix:" + cluster.unixSocket(), 43);
        assertTrue(output.contains("received 3 own messages back"), output);
        assertTrue(output.contains("received my 1048576-byte message back whole"), output);
        assertTrue(output.contains("self-test passed"), output);
    }

    /** A DROPPED frame (docs/api.md) as the Python client reads it: a notice covering its run of message ids. */
    @Test
    void pythonClientHandsOnADroppedRun() throws IOException {
        Command.requireTool("python3", "install Python 3.9 or newer ('apt-get install python3')");
        String program = String.join("\n",
                "import struct, sys",
                "sys.path.insert(0, sys.argv[1])",
                "import ricochet_client as rc",
                "c = rc.RicochetClient.__new__(rc.RicochetClient)",
                "c._queue, c._max_queued = rc.collections.deque(), 8",
                "c.dropped_deliveries, c.overflowed_deliveries = 0, 0",
                "c._take_push(rc.DROPPED, 0, struct.pack('>iiQQ', 3, 42, 4096, 3 * 4096))",
                "d = c._queue.popleft()",
                "print(d.lost, d.dropped, d.covers(4095), d.covers(4096), d.covers(2 * 4096 + 7), d.covers(3 * 4096),"
                        + " d.covers(3 * 4096 + 1))");
        Command result = Command.run(Release.TARGET, Map.of(), List.of("python3", "-c", program,
                Release.tarballHome().resolve("clients").toString()));
        assertEquals(0, result.exit(), result.output());
        assertEquals("True True False True True True False", result.output().strip());
    }

    /** The Python client's own unit tests (scripts/clients/test_ricochet_client.py, against a fake daemon). */
    @Test
    void pythonClientUnitTestsPass() throws IOException {
        Command.requireTool("python3", "install Python 3.9 or newer ('apt-get install python3')");
        Path clients = Path.of("..", "scripts", "clients").toAbsolutePath().normalize();
        Command result = Command.run(clients, Map.of(), List.of("python3", "-B", "-m", "unittest", "-q",
                "test_ricochet_client"));
        assertEquals(0, result.exit(), result.output());
    }

    @Test
    void pythonClientReportsAnUnreachableDaemonOnOneLine() throws IOException {
        Command result = python("--api", "127.0.0.1:1", "stats");
        assertEquals(1, result.exit(), result.output());
        assertTrue(result.output().startsWith("ricochet_client: 127.0.0.1:1: "), result.output());
        assertEquals(1, result.output().strip().lines().count(), result.output());
    }

    private static String pythonSelfTest(String api, int group) throws IOException {
        Command result = python("--api", api, "self-test", "--group", Integer.toString(group));
        assertEquals(0, result.exit(), result.output());
        return result.output();
    }

    /** Runs the Python client as the release ships it with {@code args}. */
    private static Command python(String... args) throws IOException {
        Command.requireTool("python3", "install Python 3.9 or newer ('apt-get install python3')");
        List<String> command = new ArrayList<>(List.of("python3",
                Release.tarballHome().resolve("clients/ricochet_client.py").toString()));
        command.addAll(List.of(args));
        return Command.run(Release.TARGET, Map.of(), command);
    }

    private static Path clientJar() throws IOException {
        return Release.tarballHome().resolve("clients/ricochet-client.jar");
    }

    /** slf4j-api from this test's class path: the one library an application adds beside the client jar. */
    private static String slf4jApi() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> Path.of(p).getFileName().toString().startsWith("slf4j-api-")).findFirst()
                .orElseThrow(() -> new AssertionError("slf4j-api is not on the test class path"));
    }
}
