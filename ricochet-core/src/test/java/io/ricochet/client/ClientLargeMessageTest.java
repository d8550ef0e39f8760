package io.ricochet.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.ApiException;
import io.ricochet.api.ApiFixture;
import io.ricochet.api.FakeLocalNode;
import io.ricochet.api.Ordering;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.api.protocol.MalformedFrameException;
import io.ricochet.api.server.ApiConfig;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Java client on protocol version 3: messages up to max-message, ByteBuffer sends and views, ORDER. */
class ClientLargeMessageTest {
    private static final int MIB = 1024 * 1024;
    private static final int MAX_MESSAGE = 20 * MIB;
    private static final int GROUP = 42;

    private ApiFixture fixture;
    private RicochetClient client;

    @BeforeEach
    void setUp() {
        fixture = new ApiFixture(ApiConfig.defaults(),
                new FakeLocalNode(ApiFixture.NODE_ID, ApiFixture.MAX_PAYLOAD, MAX_MESSAGE));
        client = fixture.client();
        client.join(GROUP);
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    private static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + seed + (i >>> 13));
        }
        return bytes;
    }

    private Delivery next() throws InterruptedException {
        Delivery delivery = client.poll(30, TimeUnit.SECONDS);
        assertNotNull(delivery, "a delivery");
        return delivery;
    }

    @Test
    void shouldSpeakVersion3AndTakeTheDaemonsLargestMessageAndItsDatagramPayloadApart() {
        assertEquals(3, client.protocolVersion());
        assertEquals(MAX_MESSAGE, client.maxMessage());
        assertEquals(io.ricochet.api.ApiFixture.MAX_PAYLOAD, client.maxPayload(), "one datagram's, apart");
    }

    @Test
    void shouldSendALargeByteArrayWhole() throws Exception {
        byte[] payload = pattern(3 * MIB, 1);

        long id = client.send(GROUP, payload);

        assertArrayEquals(payload, fixture.node().lastSent());
        Delivery echo = next();
        assertEquals(id, echo.seqno());
        assertArrayEquals(payload, echo.payload());
    }

    @Test
    void shouldSendTheRemainingBytesOfAHeapBufferAndLeaveItsPosition() throws Exception {
        byte[] backing = pattern(2 * MIB + 100, 2);
        ByteBuffer buffer = ByteBuffer.wrap(backing, 10, 2 * MIB).slice().position(5);

        client.send(GROUP, buffer);

        assertEquals(5, buffer.position());
        assertArrayEquals(Arrays.copyOfRange(backing, 15, 10 + 2 * MIB), next().payload());
    }

    @Test
    void shouldSendDirectBuffersLargeAndSmall() throws Exception {
        for (int length : new int[] {3 * MIB + 7, 100, 0}) {
            byte[] payload = pattern(length, length);
            ByteBuffer direct = ByteBuffer.allocateDirect(length).put(payload).flip();

            client.trySend(GROUP, direct);

            assertEquals(0, direct.position());
            assertArrayEquals(payload, next().payload());
        }
    }

    @Test
    void shouldRefuseAMessageAboveTheMaximumWithoutAskingTheDaemon() {
        ApiException e = assertThrows(ApiException.class,
                () -> client.send(GROUP, ByteBuffer.allocate(MAX_MESSAGE + 1)));

        assertEquals(ApiException.Code.PAYLOAD_TOO_LARGE, e.code());
        assertEquals(null, fixture.node().lastSent());
        assertTrue(client.isOpen());
    }

    @Test
    void shouldReceiveADeliverAboveSixteenMebibytesWhole() throws Exception {
        byte[] large = pattern(17 * MIB, 3);

        fixture.node().deliver(9, GROUP, 4096, large);

        Delivery delivery = next();
        assertEquals(4096, delivery.seqno());
        assertTrue(Arrays.equals(large, delivery.payload()), "the whole message");
    }

    @Test
    void shouldViewThePayloadAsAReadOnlyBufferWithoutACopy() throws Exception {
        client.send(GROUP, new byte[] {1, 2, 3});
        Delivery delivery = next();

        ByteBuffer view = delivery.payloadBuffer();

        assertTrue(view.isReadOnly());
        assertEquals(0, view.position());
        assertEquals(3, view.remaining());
        assertThrows(ReadOnlyBufferException.class, () -> view.put(0, (byte) 9));
        delivery.payload()[0] = 7; // the view shows the delivery's own bytes
        assertEquals(7, view.get(0));
        assertEquals(0, Delivery.lost(1, 2, 4096).payloadBuffer().remaining());
    }

    @Test
    void shouldSetAGroupsOrdering() {
        client.order(GROUP, Ordering.FIFO);
        client.order(GROUP + 1, Ordering.FIFO);

        assertEquals(List.of(true), fixture.node().fifo(GROUP));
        client.join(GROUP + 1);
        assertEquals(List.of(true), fixture.node().fifo(GROUP + 1));
        client.order(GROUP, Ordering.UNORDERED);
        assertEquals(List.of(false), fixture.node().fifo(GROUP));
    }

    @Test
    void shouldFallBackToVersion2WithADaemonThatDoesNotSpeak3() throws Exception {
        try (ServerSocket old = new ServerSocket(0, 2, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<Integer>> versions = CompletableFuture.supplyAsync(() -> oldDaemon(old));

            try (RicochetClient fallback = RicochetClient.connect("127.0.0.1", old.getLocalPort())) {
                assertEquals(2, fallback.protocolVersion());
                assertEquals(1023, fallback.maxMessage());
                ApiException e = assertThrows(ApiException.class, () -> fallback.order(GROUP, Ordering.FIFO));
                assertEquals(ApiException.Code.UNSUPPORTED_VERSION, e.code());
                assertThrows(ApiException.class, () -> fallback.send(GROUP, new byte[1024]));
            }
            assertEquals(List.of(3, 2), versions.get(30, TimeUnit.SECONDS));
        }
    }

    /** A daemon of version 2: refuses a HELLO of 3 and closes, then greets a HELLO of 2. */
    private static List<Integer> oldDaemon(ServerSocket server) {
        try (Socket first = server.accept()) {
            ApiRequest.Hello hello = assertInstanceOf(ApiRequest.Hello.class, read(first));
            write(first, new ApiReply.Error(hello.requestId(), ApiException.Code.UNSUPPORTED_VERSION, "1 to 2"));
            try (Socket second = server.accept()) {
                ApiRequest.Hello again = assertInstanceOf(ApiRequest.Hello.class, read(second));
                write(second, new ApiReply.HelloReply(again.requestId(), again.version(), 1, 1023));
                second.getInputStream().readAllBytes(); // until the client closes
                return List.of(hello.version(), again.version());
            }
        } catch (IOException | MalformedFrameException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ApiFrame read(Socket socket) throws IOException, MalformedFrameException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return ApiFrameCodec.decode(Unpooled.wrappedBuffer(frame));
    }

    private static void write(Socket socket, ApiFrame frame) throws IOException {
        ByteBuf buf = Unpooled.buffer();
        ApiFrameCodec.encode(frame, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        socket.getOutputStream().write(bytes);
    }
}
