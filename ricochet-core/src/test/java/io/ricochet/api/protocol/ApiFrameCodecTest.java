package io.ricochet.api.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.ApiException;
import io.ricochet.api.Ordering;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ApiFrameCodecTest {
    private static final long FUZZ_SEED = 20_260_101L;

    static Stream<ApiFrame> everyType() {
        return Stream.of(
                new ApiRequest.Hello(1, ApiProtocol.VERSION, "grün-client"),
                new ApiRequest.Join(2, -5),
                new ApiRequest.Leave(3, 6),
                new ApiRequest.Send(4, 7, new byte[] {1, 2, 3}),
                new ApiRequest.Stats(5),
                new ApiRequest.TrySend(6, -7, new byte[] {1, 2}),
                new ApiRequest.Options(7, ApiRequest.Options.NO_ECHO | ApiRequest.Options.NO_LOCAL),
                new ApiRequest.Order(8, -9, Ordering.FIFO),
                new ApiRequest.Order(9, 10, Ordering.UNORDERED),
                new ApiReply.HelloReply(1, ApiProtocol.VERSION, 42, 1024),
                new ApiReply.Ok(4, Long.MAX_VALUE),
                new ApiReply.StatsReply(5, "{\"a\":1}".getBytes(StandardCharsets.UTF_8)),
                new ApiReply.Error(6, ApiException.Code.NOT_A_MEMBER, "not in group 7"),
                new ApiPush.Deliver(9, 7, 12, new byte[] {4, 5}),
                new ApiPush.Lost(9, 7, 13),
                new ApiPush.Overflow(99),
                new ApiPush.Dropped(9, 7, 4096, 3 * 4096 + 4095));
    }

    @ParameterizedTest
    @MethodSource("everyType")
    void shouldRoundTripEveryFrameType(ApiFrame frame) throws MalformedFrameException {
        byte[] encoded = encode(frame);

        ApiFrame decoded = decodeWithPrefix(encoded);

        assertEquals(frame.type(), decoded.type());
        assertEquals(frame.requestId(), decoded.requestId());
        assertArrayEquals(encoded, encode(decoded));
        assertEquals(encoded.length, ApiFrameCodec.encodedLength(frame));
    }

    @Test
    void shouldLayOutSendByteForByte() {
        byte[] expected = {0, 0, 0, 11, 0x04, 0, 0, 0, 1, 0, 0, 0, 5, 'h', 'i'};

        assertArrayEquals(expected, encode(new ApiRequest.Send(1, 5, "hi".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void shouldLayOutTrySendByteForByte() {
        byte[] expected = {0, 0, 0, 11, 0x06, 0, 0, 0, 1, 0, 0, 0, 5, 'h', 'i'};

        assertArrayEquals(expected, encode(new ApiRequest.TrySend(1, 5, "hi".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void shouldLayOutOptionsByteForByte() throws MalformedFrameException {
        byte[] noEcho = {0, 0, 0, 9, 0x07, 0, 0, 0, 3, 0, 0, 0, 1};
        byte[] noLocal = {0, 0, 0, 9, 0x07, 0, 0, 0, 4, 0, 0, 0, 2};

        assertArrayEquals(noEcho, encode(new ApiRequest.Options(3, ApiRequest.Options.NO_ECHO)));
        assertArrayEquals(noLocal, encode(new ApiRequest.Options(4, ApiRequest.Options.NO_LOCAL)));
        ApiRequest.Options decoded = assertInstanceOf(ApiRequest.Options.class, decodeWithPrefix(noEcho));
        assertTrue(decoded.has(ApiRequest.Options.NO_ECHO));
        assertEquals(false, decoded.has(ApiRequest.Options.NO_LOCAL));
    }

    @Test
    void shouldLayOutTheNewErrorCodesByteForByte() {
        assertArrayEquals(new byte[] {0, 0, 0, 7, 0x44, 0, 0, 0, 2, 0, 8},
                encode(new ApiReply.Error(2, ApiException.Code.BUSY, "")));
        assertArrayEquals(new byte[] {0, 0, 0, 7, 0x44, 0, 0, 0, 3, 0, 9},
                encode(new ApiReply.Error(3, ApiException.Code.LIMIT_EXCEEDED, "")));
    }

    @Test
    void shouldLayOutDeliverByteForByte() throws MalformedFrameException {
        byte[] bytes = {0, 0, 0, 23, (byte) 0x81, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 1, 2, 'o', 'k'};

        ApiPush.Deliver deliver = assertInstanceOf(ApiPush.Deliver.class, decodeWithPrefix(bytes));

        assertEquals(3, deliver.origin());
        assertEquals(5, deliver.group());
        assertEquals(258, deliver.seqno());
        assertArrayEquals("ok".getBytes(StandardCharsets.US_ASCII), deliver.payload());
    }

    @Test
    void shouldLayOutHelloAndErrorByteForByte() {
        assertArrayEquals(new byte[] {0, 0, 0, 9, 0x01, 0, 0, 0, 1, 0, 1, 'c', 'l'},
                encode(new ApiRequest.Hello(1, 1, "cl")));
        assertArrayEquals(new byte[] {0, 0, 0, 9, 0x44, 0, 0, 0, 2, 0, 4, 'n', 'o'},
                encode(new ApiReply.Error(2, ApiException.Code.PAYLOAD_TOO_LARGE, "no")));
    }

    @Test
    void shouldLayOutOrderByteForByte() throws MalformedFrameException {
        byte[] fifo = {0, 0, 0, 10, 0x08, 0, 0, 0, 7, 0, 0, 0, 42, 1};
        byte[] unordered = {0, 0, 0, 10, 0x08, 0, 0, 0, 8, -1, -1, -1, -2, 0};

        assertArrayEquals(fifo, encode(new ApiRequest.Order(7, 42, Ordering.FIFO)));
        assertArrayEquals(unordered, encode(new ApiRequest.Order(8, -2, Ordering.UNORDERED)));
        assertEquals(new ApiRequest.Order(7, 42, Ordering.FIFO), decodeWithPrefix(fifo));
        assertEquals(new ApiRequest.Order(8, -2, Ordering.UNORDERED), decodeWithPrefix(unordered));
    }

    @Test
    void shouldLayOutAVersion3HelloReplyByteForByte() throws MalformedFrameException {
        // version 3, node 7, max payload 1 023 (one datagram), max message 16 MiB
        byte[] reply = {0, 0, 0, 19, 0x41, 0, 0, 0, 1, 0, 3, 0, 0, 0, 7, 0, 0, 3, -1, 1, 0, 0, 0};

        assertArrayEquals(reply, encode(new ApiReply.HelloReply(1, 3, 7, 1023, 16 * 1024 * 1024)));
        assertEquals(new ApiReply.HelloReply(1, 3, 7, 1023, 16 * 1024 * 1024), decodeWithPrefix(reply));
        assertArrayEquals(new byte[] {0, 0, 0, 9, 0x01, 0, 0, 0, 1, 0, 3, 'c', 'l'},
                encode(new ApiRequest.Hello(1, 3, "cl")));
    }

    @Test
    void shouldBoundWhatAClientAcceptsByItsVersion() {
        int sixteenMiB = 16 * 1024 * 1024;

        assertEquals(ApiProtocol.MAX_INBOUND_FRAME_LENGTH, ApiProtocol.inboundFrameLimit(2, sixteenMiB));
        assertEquals(ApiProtocol.MAX_INBOUND_FRAME_LENGTH, ApiProtocol.inboundFrameLimit(3, 1023));
        assertEquals(sixteenMiB + 21, ApiProtocol.inboundFrameLimit(3, sixteenMiB));
        assertEquals(ApiProtocol.MAX_MESSAGE + 21, ApiProtocol.inboundFrameLimit(3, Integer.MAX_VALUE));
        assertEquals(9, ApiProtocol.SEND_OVERHEAD);
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("empty", new byte[0], "shorter than the 5-byte header"),
                Arguments.of("unknown type", new byte[] {0x7f, 0, 0, 0, 1}, "unknown frame type 0x7f"),
                Arguments.of("JOIN too short", new byte[] {0x02, 0, 0, 0, 1, 0, 0, 0}, "JOIN body of 3 bytes"),
                Arguments.of("STATS with a body", new byte[] {0x05, 0, 0, 0, 1, 0}, "STATS body of 1 bytes"),
                Arguments.of("HELLO without version", new byte[] {0x01, 0, 0, 0, 1, 0}, "at least 2"),
                Arguments.of("request id 0", new byte[] {0x05, 0, 0, 0, 0}, "request id 0"),
                Arguments.of("push with a request id", new byte[] {(byte) 0x83, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
                        "must be 0"),
                Arguments.of("negative seqno", new byte[] {(byte) 0x82, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2,
                        -128, 0, 0, 0, 0, 0, 0, 0}, "negative sequence number"),
                Arguments.of("negative overflow", new byte[] {(byte) 0x83, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1},
                        "negative overflow count"),
                Arguments.of("dropped run backwards", new byte[] {(byte) 0x84, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2,
                        0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 8}, "ends before it starts"),
                Arguments.of("OPTIONS with an unknown flag", new byte[] {0x07, 0, 0, 0, 1, 0, 0, 0, 5},
                        "unknown option flags 0x00000004"),
                Arguments.of("OPTIONS too short", new byte[] {0x07, 0, 0, 0, 1, 0, 0, 1}, "OPTIONS body of 3 bytes"),
                Arguments.of("TRY_SEND without a group", new byte[] {0x06, 0, 0, 0, 1, 0, 0, 0},
                        "TRY_SEND body of 3 bytes, expected at least 4"),
                Arguments.of("ORDER with mode 2", new byte[] {0x08, 0, 0, 0, 1, 0, 0, 0, 5, 2},
                        "unknown ordering mode 2"),
                Arguments.of("ORDER with mode 255", new byte[] {0x08, 0, 0, 0, 1, 0, 0, 0, 5, -1},
                        "unknown ordering mode 255"),
                Arguments.of("ORDER without a mode", new byte[] {0x08, 0, 0, 0, 1, 0, 0, 0, 5},
                        "ORDER body of 4 bytes, expected 5"),
                Arguments.of("ORDER too long", new byte[] {0x08, 0, 0, 0, 1, 0, 0, 0, 5, 1, 0},
                        "ORDER body of 6 bytes, expected 5"),
                Arguments.of("ORDER with request id 0", new byte[] {0x08, 0, 0, 0, 0, 0, 0, 0, 5, 1},
                        "request id 0"),
                Arguments.of("client name too long", concat(new byte[] {0x01, 0, 0, 0, 1, 0, 1}, new byte[256]),
                        "client name longer than 255 bytes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void shouldRefuseMalformedFrames(String name, byte[] frame, String reason) {
        MalformedFrameException e = assertThrows(MalformedFrameException.class,
                () -> ApiFrameCodec.decode(Unpooled.wrappedBuffer(frame)));

        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void shouldEchoTheRequestIdOfAnUnknownType() {
        MalformedFrameException e = assertThrows(MalformedFrameException.class,
                () -> ApiFrameCodec.decode(Unpooled.wrappedBuffer(new byte[] {0x3f, 0, 0, 1, 2})));

        assertEquals(258, e.requestId());
    }

    @Test
    void shouldNeverThrowAnythingButMalformedOnRandomBytes() {
        Random random = new Random(FUZZ_SEED);
        for (int i = 0; i < 20_000; i++) {
            byte[] frame = new byte[random.nextInt(40)];
            random.nextBytes(frame);
            if (frame.length > 0 && random.nextBoolean()) {
                ApiFrameType[] types = ApiFrameType.values();
                frame[0] = (byte) types[random.nextInt(types.length)].wire();
            }
            ByteBuf buf = Unpooled.wrappedBuffer(frame);
            try {
                ApiFrameCodec.decode(buf);
                assertEquals(0, buf.readableBytes(), "decode must consume the whole frame (seed " + FUZZ_SEED + ")");
            } catch (MalformedFrameException expected) {
                // refused: fine
            }
        }
    }

    @Test
    void shouldClassifyEveryTypeByItsTopBits() {
        for (ApiFrameType type : ApiFrameType.values()) {
            assertEquals(type, ApiFrameType.of(type.wire()));
            int kinds = (type.isRequest() ? 1 : 0) + (type.isPush() ? 1 : 0);
            assertTrue(kinds <= 1, type.toString());
        }
        assertTrue(ApiFrameType.SEND.isRequest());
        assertTrue(ApiFrameType.OVERFLOW.isPush());
        assertEquals(null, ApiFrameType.of(0));
    }

    private static byte[] encode(ApiFrame frame) {
        ByteBuf buf = Unpooled.buffer();
        ApiFrameCodec.encode(frame, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    private static ApiFrame decodeWithPrefix(byte[] bytes) throws MalformedFrameException {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        assertEquals(bytes.length - 4, buf.readInt(), "length prefix");
        return ApiFrameCodec.decode(buf);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
