package io.ricochet.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.api.ApiException;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.Await;
import io.ricochet.api.server.ApiCounter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SEND waits for the daemon to take the packet, TRY_SEND is refused with BUSY instead. */
class ClientSendModesTest {
    private static final int GROUP = 5;
    private static final long WAIT_S = 30;

    private ApiFixture fixture;
    private RicochetClient client;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture();
        client = fixture.client();
        client.join(GROUP);
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldTrySendLikeSendWhenTheDaemonHasRoom() throws InterruptedException {
        assertEquals(0, client.trySend(GROUP, text("a")));
        assertEquals(1, client.send(GROUP, text("b")));

        assertEquals("a", text(client.poll(WAIT_S, TimeUnit.SECONDS)));
        assertEquals("b", text(client.poll(WAIT_S, TimeUnit.SECONDS)));
    }

    @Test
    void shouldRefuseATrySendWithBusyWhenTheDaemonIsFullAndSendNothing() throws InterruptedException {
        fixture.node().full(true);

        ApiException e = assertThrows(ApiException.class, () -> client.trySend(GROUP, text("refused")));

        assertEquals(ApiException.Code.BUSY, e.code());
        assertEquals(1, fixture.server().counter(ApiCounter.REQUESTS_FAILED));
        fixture.node().full(false);
        assertEquals(0, client.trySend(GROUP, text("taken")), "the refused packet used no seqno");
        assertEquals("taken", text(client.poll(WAIT_S, TimeUnit.SECONDS)));
    }

    @Test
    void shouldBlockASendUntilTheDaemonTakesThePacket() throws Exception {
        fixture.node().full(true);

        CompletableFuture<Long> send = CompletableFuture.supplyAsync(() -> client.send(GROUP, text("waits")));
        Await.until("the send waits in the daemon", () -> fixture.node().waitingSends() == 1);
        assertFalse(send.isDone(), "SEND must not be answered before the daemon takes the packet");
        assertThrows(ApiException.class, () -> client.trySend(GROUP, text("busy")));

        fixture.node().full(false);

        assertEquals(0, send.get(WAIT_S, TimeUnit.SECONDS));
        assertEquals("waits", text(client.poll(WAIT_S, TimeUnit.SECONDS)));
    }

    @Test
    void shouldRefuseATrySendToAGroupNotJoinedOrTooLarge() {
        ApiException notMember = assertThrows(ApiException.class, () -> client.trySend(GROUP + 1, text("x")));
        ApiException tooLarge = assertThrows(ApiException.class,
                () -> client.trySend(GROUP, new byte[ApiFixture.MAX_PAYLOAD + 1]));

        assertEquals(ApiException.Code.NOT_A_MEMBER, notMember.code());
        assertEquals(ApiException.Code.PAYLOAD_TOO_LARGE, tooLarge.code());
    }

    private static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Delivery delivery) {
        assertNotNull(delivery, "no delivery");
        return new String(delivery.payload(), StandardCharsets.UTF_8);
    }
}
