package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendCommandTest {
    private static final int GROUP = 5;

    @TempDir
    Path dir;

    private ApiFixture fixture;
    private RicochetClient receiver;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
        receiver = fixture.client();
        receiver.join(GROUP);
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldSendEachLineAsOneMessage() throws Exception {
        Path lines = Files.write(dir.resolve("lines.txt"), List.of("alpha", "beta", "grüße"));

        CliRun run = CliRun.line("send --api " + fixture.address() + " --group 5 --input " + lines);

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("sent 3 message(s) to group 5\n", run.out());
        for (String expected : List.of("alpha", "beta", "grüße")) {
            assertEquals(expected, new String(next().payload(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldSendGeneratedMessagesAtARate() throws Exception {
        CliRun run = CliRun.line("send --api " + fixture.address() + " --group 5 --rate 5000 --count 20 --size 100");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().matches("sent 20 message\\(s\\) of 100 bytes to group 5 in [0-9.]+ s: [0-9.]+ msg/s "
                + "\\(target 5000\\)\n"), run.out());
        for (int i = 0; i < 20; i++) {
            Delivery delivery = next();
            assertEquals(100, delivery.payload().length);
            assertTrue(new String(delivery.payload(), StandardCharsets.US_ASCII).startsWith("ricochet " + i + " ."));
        }
    }

    @Test
    void shouldRefuseASizeAboveTheDaemonsMaximum() {
        CliRun run = CliRun.line("send --api " + fixture.address() + " --group 5 --rate 10 --size 5000");

        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("ricochet send: --size 5000: above the daemon's maximum message of 1024 "
                + "bytes (its max-message)\n"), run.err());
    }

    @Test
    void shouldStopAtALineLongerThanTheMaximumMessage() throws Exception {
        Path lines = Files.write(dir.resolve("long.txt"), List.of("ok", "x".repeat(2000)));

        CliRun run = CliRun.line("send --api " + fixture.address() + " --group 5 --input " + lines);

        assertEquals(1, run.exitCode());
        assertEquals("ricochet send: line 2: 2000 bytes exceeds the maximum message of 1024; 1 message(s) "
                + "sent\n",
                run.err());
    }

    @Test
    void shouldPadOrCutGeneratedPayloadsToTheirSize() {
        assertEquals("ricochet 3 ....", new String(SendCommand.payload(3, 15), StandardCharsets.US_ASCII));
        assertEquals("rico", new String(SendCommand.payload(3, 4), StandardCharsets.US_ASCII));
    }

    private Delivery next() throws InterruptedException {
        Delivery delivery = receiver.poll(30, TimeUnit.SECONDS);
        assertNotNull(delivery, "no delivery");
        return delivery;
    }
}
