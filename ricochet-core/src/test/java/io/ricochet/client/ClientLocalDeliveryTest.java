package io.ricochet.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.ApiFixture;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Local delivery (docs/api.md): by default every local subscriber, the sender included, receives a local send;
 * {@code echo(false)} (OPTIONS NO_ECHO) leaves out the sender's own packets, {@code localDelivery(false)}
 * (NO_LOCAL) every packet sent through this daemon. Absence is shown by the marker that arrives first instead.
 */
class ClientLocalDeliveryTest {
    private static final int GROUP = 5;
    private static final int REMOTE = 3;
    private static final long WAIT_S = 30;

    private ApiFixture fixture;
    private RicochetClient other;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
        other = fixture.client();
        other.join(GROUP);
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldDeliverEveryLocalSendToEverySubscriberByDefault() throws InterruptedException {
        assertTrue(ClientOptions.defaults().echo());
        assertTrue(ClientOptions.defaults().localDelivery());
        RicochetClient sender = fixture.client();
        sender.join(GROUP);

        sender.send(GROUP, text("own"));
        other.send(GROUP, text("other's"));

        assertEquals("own", next(sender));
        assertEquals("other's", next(sender));
        assertEquals("own", next(other));
        assertEquals("other's", next(other));
    }

    @Test
    void shouldNotEchoTheSendersOwnPacketsWithEchoOff() throws InterruptedException {
        try (RicochetClient sender = connect(ClientOptions.defaults().echo(false))) {
            sender.join(GROUP);

            sender.send(GROUP, text("own"));
            other.send(GROUP, text("other's"));

            assertEquals("other's", next(sender), "its own packet must not come back");
            assertEquals("own", next(other));
            assertEquals("other's", next(other));
        }
    }

    @Test
    void shouldDeliverNoLocalSendWithLocalDeliveryOff() throws InterruptedException {
        try (RicochetClient remoteOnly = connect(ClientOptions.defaults().localDelivery(false))) {
            remoteOnly.join(GROUP);

            remoteOnly.send(GROUP, text("own"));
            other.send(GROUP, text("other's"));
            fixture.node().deliver(REMOTE, GROUP, 0, text("remote"));

            Delivery first = remoteOnly.poll(WAIT_S, TimeUnit.SECONDS);
            assertNotNull(first);
            assertEquals(REMOTE, first.origin());
            assertEquals("remote", new String(first.payload(), StandardCharsets.UTF_8));
            assertEquals("own", next(other));
            assertEquals("other's", next(other));
            assertEquals("remote", next(other));
        }
    }

    @Test
    void shouldTurnOffBothWithTheOptionsCombined() {
        ClientOptions options = ClientOptions.defaults().echo(false).localDelivery(false);

        assertFalse(options.echo());
        assertFalse(options.localDelivery());
        try (RicochetClient client = connect(options)) {
            assertTrue(client.isOpen());
        }
    }

    private RicochetClient connect(ClientOptions options) {
        return RicochetClient.connect("127.0.0.1", fixture.port(), options);
    }

    private static String next(RicochetClient client) throws InterruptedException {
        Delivery delivery = client.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(delivery, "no delivery");
        return new String(delivery.payload(), StandardCharsets.UTF_8);
    }

    private static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
