package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.cli.RicochetMain;
import io.ricochet.client.RicochetClient;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.EngineCounter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The fountain carousel on real multicast sockets (issue 15, point 2): a GMS and four daemons running ipmc, loss
 * injected at every one; {@code ricochet fountain send} streams a 1.5 MB random file from node 1, and three
 * {@code ricochet fountain recv} start one second apart at nodes 2, 3 and 4, which drop 5 %, 10 % and 20 % of what
 * arrives. Each must write the file with the right SHA-256, and no daemon may have sent a repair, a NAK or a
 * retransmission, or found a loss to report: a receiver's losses cost it only symbols.
 */
class CarouselSystemTest {
    private static final int GROUP = 30;
    private static final String[] LOSS = {"uniform:0.1", "uniform:0.05", "uniform:0.1", "uniform:0.2"};

    @TempDir
    Path dir;

    /** Runs {@code ricochet ARGS} in this JVM; returns its exit code, standard output and error together. */
    private static CompletableFuture<String> ricochet(String... args) {
        return CompletableFuture.supplyAsync(() -> {
            StringWriter text = new StringWriter();
            PrintWriter writer = new PrintWriter(text, true);
            int code = new CommandLine(new RicochetMain()).setOut(writer).setErr(writer).execute(args);
            return "exit " + code + "\n" + text;
        });
    }

    @Test
    void shouldDeliverTheFileToLateAndLossyReceiversWithoutRepairTraffic() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        byte[] content = new byte[1_500_000];
        new SplittableRandom(15).nextBytes(content);
        Path file = Files.write(dir.resolve("bulk.bin"), content);
        try (ProcessCluster cluster = new ProcessCluster("carousel", 1)) {
            cluster.startGms();
            for (int node = 1; node <= 4; node++) {
                cluster.startDaemon(node, "--protocol", "ipmc", "--inject-loss", LOSS[node - 1]);
            }
            CompletableFuture<String> send = ricochet("fountain", "send", "--api", api(1), "--group",
                    Integer.toString(GROUP), "--rate", "2000", "--seconds", "10", file.toString());
            List<CompletableFuture<String>> receivers = new ArrayList<>();
            for (int node = 2; node <= 4; node++) {
                receivers.add(ricochet("fountain", "recv", "--api", api(node), "--group", Integer.toString(GROUP),
                        "--seconds", "20", "--out", dir.resolve("copy-" + node).toString()));
                Thread.sleep(1000);
            }
            for (int node = 2; node <= 4; node++) {
                String output = receivers.get(node - 2).get(30, TimeUnit.SECONDS);
                assertTrue(output.startsWith("exit 0\n"), "node " + node + ": " + output);
                assertTrue(output.contains("received file "), output);
                assertArrayEquals(content, Files.readAllBytes(dir.resolve("copy-" + node)), "node " + node);
            }
            String sent = send.get(30, TimeUnit.SECONDS);
            assertTrue(sent.startsWith("exit 0\n"), sent);
            for (int node = 1; node <= 4; node++) {
                try (RicochetClient client = RicochetClient.connect("127.0.0.1", ProcessCluster.apiPort(node))) {
                    var stats = client.stats();
                    String where = "node " + node;
                    assertEquals("ipmc", stats.protocol(), where);
                    assertEquals(0, stats.counter(EngineCounter.RETRANSMITS_RECEIVED), where);
                    assertEquals(0, stats.counter(EngineCounter.LOSSES_DETECTED), where);
                    assertEquals(0, stats.counter(EngineCounter.UNRECOVERED), where + ": no LOST reported");
                    assertEquals(0, stats.counter(EngineCounter.INVALID_PACKETS), where);
                    if (node == 1) {
                        assertTrue(stats.counter(EngineCounter.DATA_SENT) > 0, where);
                    } else {
                        assertEquals(0, stats.counter(EngineCounter.DATA_SENT),
                                where + ": a receiver sends nothing, no repair and no NAK");
                        assertTrue(stats.counter(DaemonCounter.INJECTED_DROPS) > 0, where + ": loss was injected");
                        assertTrue(stats.counter(EngineCounter.DELIVERED) > 0, where);
                    }
                }
            }
        }
    }

    private static String api(int node) {
        return "127.0.0.1:" + ProcessCluster.apiPort(node);
    }
}
