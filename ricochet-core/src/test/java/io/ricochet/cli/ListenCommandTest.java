package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.client.RicochetClient;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ListenCommandTest {
    private static final int GROUP = 5;

    private ApiFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldPrintEachDeliveryAndStopOnceTheExpectedNumberArrived() throws Exception {
        CompletableFuture<CliRun> listen = listen("--expect 3 --seconds 120");

        RicochetClient sender = joinedSender();
        sender.send(GROUP, "one".getBytes(StandardCharsets.UTF_8));
        sender.send(GROUP, new byte[] {0, 1, 2});
        sender.send(GROUP, "three".getBytes(StandardCharsets.UTF_8));

        CliRun run = listen.get(60, TimeUnit.SECONDS);
        assertEquals(0, run.exitCode(), run.err());
        String[] lines = run.out().split("\n");
        assertEquals("7 5 0 one", lines[0]);
        assertEquals("7 5 1 (3 bytes)", lines[1]);
        assertEquals("7 5 2 three", lines[2]);
        assertTrue(lines[3].startsWith("received 3 deliveries and 0 loss notices from group 5 in "), lines[3]);
        assertEquals(4, lines.length, run.out());
    }

    @Test
    void shouldPrintLossNotices() throws Exception {
        CompletableFuture<CliRun> listen = listen("--expect 1");

        fixture.node().lose(3, GROUP, 4096);
        joinedSender().send(GROUP, "x".getBytes(StandardCharsets.UTF_8));

        CliRun run = listen.get(60, TimeUnit.SECONDS);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("3 5 4096..8191 (lost)\n7 5 0 x\nreceived 1 deliveries and 1 loss notices"),
                run.out());
    }

    @Test
    void shouldAskForFifoOrderWithOrderFifoAndNothingByDefault() throws Exception {
        CompletableFuture<CliRun> fifo = listen("--order fifo --expect 1");
        assertEquals(java.util.List.of(true), fixture.node().fifo(GROUP));
        joinedSender().send(GROUP, "x".getBytes(StandardCharsets.UTF_8));
        assertEquals(0, fifo.get(60, TimeUnit.SECONDS).exitCode());

        CliRun bad = CliRun.line("listen --api " + fixture.address() + " --group 5 --order sorted");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--order") && bad.err().contains("must be unordered or fifo"), bad.err());
    }

    @Test
    void shouldPrintOnlyTheSummaryWithCountOnly() throws Exception {
        CompletableFuture<CliRun> listen = listen("--count-only --expect 2");

        RicochetClient sender = joinedSender();
        sender.send(GROUP, new byte[] {1});
        sender.send(GROUP, new byte[] {2});

        CliRun run = listen.get(60, TimeUnit.SECONDS);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("received 2 deliveries and 0 loss notices from group 5"), run.out());
        assertEquals(1, run.out().split("\n").length, run.out());
    }

    @Test
    void shouldFailWhenFewerThanExpectedArriveInTime() {
        CliRun run = CliRun.line("listen --api " + fixture.address() + " --group 5 --expect 5 --seconds 0.05");

        assertEquals(1, run.exitCode());
        assertEquals("ricochet listen: expected 5 deliveries, received 0\n", run.err());
        assertTrue(run.out().startsWith("received 0 deliveries"), run.out());
    }

    @Test
    void shouldStopAfterTheGivenSeconds() {
        CliRun run = CliRun.line("listen --api " + fixture.address() + " --group 5 --seconds 0.05");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("received 0 deliveries and 0 loss notices from group 5"), run.out());
        Await.until("the listener leaves", () -> fixture.node().listeners(GROUP) == 0);
    }

    @Test
    void shouldShowPrintableUtf8AsTextAndAnythingElseAsItsLength() {
        assertEquals("grüße\tok", ListenCommand.text("grüße\tok".getBytes(StandardCharsets.UTF_8)));
        assertEquals("(2 bytes)", ListenCommand.text(new byte[] {'a', '\n'}));
        assertEquals("(1 bytes)", ListenCommand.text(new byte[] {(byte) 0xff}));
        assertEquals("(0 bytes)", ListenCommand.text(new byte[0]));
    }

    /** Starts {@code ricochet listen} on the group and waits until it has joined. */
    private CompletableFuture<CliRun> listen(String flags) {
        CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
                () -> CliRun.line("listen --api " + fixture.address() + " --group 5 " + flags));
        Await.until("ricochet listen joins the group", () -> fixture.node().listeners(GROUP) == 1 || run.isDone());
        return run;
    }

    /** A client in the group, so it may send; joined after the listener so the listener count above is exact. */
    private RicochetClient joinedSender() {
        RicochetClient sender = fixture.client();
        sender.subscribe(delivery -> { });
        sender.join(GROUP);
        return sender;
    }
}
