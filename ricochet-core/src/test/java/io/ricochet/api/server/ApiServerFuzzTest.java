package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.ricochet.api.ApiException;
import io.ricochet.api.DeliveryListener;
import io.ricochet.api.LocalNode;
import io.ricochet.api.NodeStats;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.api.protocol.MalformedFrameException;
import io.ricochet.support.Fuzz;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the local API server's connection pipeline, the one {@link ApiServer} installs ({@link FrameSplitter},
 * {@link FrameCodecHandler}, {@link ApiConnection}) on an embedded channel, in front of a node that answers at once.
 * Inputs are valid frames of every request type with realistic bodies (SEND and TRY_SEND payloads up to past the
 * largest the node takes, client names up to past 255 bytes, JOIN, LEAVE, OPTIONS, STATS), then mutated.
 *
 * <p>{@link #shouldAnswerEveryFrameAsTheCodecJudgesIt}: one frame at a time, its length prefix right and its bytes
 * mutated (bits, type, request id, truncation, extension, splices), written in random chunks. The codec, asked
 * here, is the oracle: a frame it refuses, a reply or push type, a request before HELLO or a second HELLO gets one
 * ERROR MALFORMED_FRAME echoing the request id the codec read, the connection closes and MALFORMED_FRAMES counts
 * it once; any other request gets exactly one reply with its request id and the connection stays open, so the
 * next valid frame is served (a refused request, such as NOT_A_MEMBER or PAYLOAD_TOO_LARGE, is recoverable).
 *
 * <p>{@link #shouldSurviveStreamsOfBrokenFraming}: several frames as one byte stream, mutated as a stream (length
 * fields changed, frames spliced, cut, doubled, garbage), then a valid STATS and the end of input. Whatever the
 * daemon sends decodes; it sends at most one closing ERROR, last (no reply of a request in flight after it), and
 * counts it once; a connection it did not close answered the STATS, unless a length field of the stream took the
 * STATS in exactly (which the length prefixes, walked here, tell). Nothing escapes as an exception.
 * {@code -Dricochet.fuzz.inputs=N} sets the frames per test (10^5 by default).
 */
class ApiServerFuzzTest {
    private static final long SEED = Fuzz.seed(0x41504946555aL);
    private static final int INPUTS = Fuzz.inputs(100_000);
    /** The node's largest payload; the frame limit (64 KiB) allows a little more, refused as PAYLOAD_TOO_LARGE. */
    private static final int MAX_PAYLOAD = 60_000;
    private static final int PROBE_ID = 0x7fff_fff0;

    private final ApiCounters counters = new ApiCounters();
    private final SyncNode node = new SyncNode();
    private final ApiConfig config = ApiConfig.defaults();
    private int nextId = 1;

    /** A node that answers every call at once, as the daemon would, with no delivery. */
    private static final class SyncNode implements LocalNode {
        private final Map<DeliveryListener, Set<Integer>> joined = new HashMap<>();
        private long seqno;

        @Override
        public int nodeId() {
            return 3;
        }

        @Override
        public int maxPayload() {
            return MAX_PAYLOAD;
        }

        @Override
        public CompletableFuture<Void> join(int group, DeliveryListener listener) {
            joined.computeIfAbsent(listener, l -> new HashSet<>()).add(group);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> leave(int group, DeliveryListener listener) {
            joined.getOrDefault(listener, Set.of()).remove(group);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Long> send(int group, byte[] payload, DeliveryListener from, boolean wait) {
            if (payload.length > MAX_PAYLOAD) {
                return CompletableFuture.failedFuture(new ApiException(ApiException.Code.PAYLOAD_TOO_LARGE, "big"));
            }
            if (!joined.getOrDefault(from, Set.of()).contains(group)) {
                return CompletableFuture.failedFuture(new ApiException(ApiException.Code.NOT_A_MEMBER, "no"));
            }
            return CompletableFuture.completedFuture(seqno++ * 4096);
        }

        @Override
        public CompletableFuture<NodeStats> stats() {
            return CompletableFuture.completedFuture(new NodeStats(3, 1, "fake", "none", "fake", 0, Map.of(), 0, null,
                    Map.of(), List.of(), Map.of(), null, null));
        }
    }

    @Test
    void shouldAnswerEveryFrameAsTheCodecJudgesIt() {
        SplittableRandom rng = new SplittableRandom(SEED);
        int frames = 0;
        int refused = 0;
        int served = 0;
        while (frames < INPUTS) {
            EmbeddedChannel channel = connect();
            boolean greeted = false;
            byte[] previous = body(rng, validRequest(rng));
            while (channel.isOpen() && frames < INPUTS) {
                ApiRequest valid = greeted || rng.nextInt(20) == 0 ? validRequest(rng) : hello(rng);
                byte[] body = body(rng, valid);
                if (rng.nextInt(3) == 0) {
                    body = Fuzz.mutate(rng, body, previous, 2);
                }
                previous = body;
                String what = "seed=" + SEED + " frame #" + frames + " " + valid;
                long malformedBefore = counters.get(ApiCounter.MALFORMED_FRAMES);
                write(rng, channel, withPrefix(body));
                frames++;
                List<ApiFrame> out = replies(channel);
                ApiFrame expected = decodeOrNull(body);
                MalformedFrameException refusal = refusal(body);
                boolean closes = refusal != null || !(expected instanceof ApiRequest)
                        || expected instanceof ApiRequest.Hello == greeted
                        || expected instanceof ApiRequest.Hello h && (h.version() > ApiProtocol.VERSION
                        || h.version() < ApiProtocol.OLDEST_VERSION);
                assertEquals(1, out.size(), what + ": one reply, got " + out);
                ApiFrame reply = out.get(0);
                if (closes) {
                    assertTrue(reply instanceof ApiReply.Error e && (e.code() == ApiException.Code.MALFORMED_FRAME
                            || e.code() == ApiException.Code.UNSUPPORTED_VERSION), what + ": " + reply);
                    if (refusal != null) {
                        assertEquals(refusal.requestId(), reply.requestId(), what + ": the request id echoed");
                    }
                    assertFalse(channel.isOpen(), what + ": closed after " + reply);
                    assertEquals(malformedBefore + 1, counters.get(ApiCounter.MALFORMED_FRAMES), what);
                    refused++;
                } else {
                    assertEquals(expected.requestId(), reply.requestId(), what + ": " + reply);
                    assertTrue(!(reply instanceof ApiReply.Error e) || e.code() != ApiException.Code.MALFORMED_FRAME,
                            what + ": " + reply);
                    assertTrue(channel.isOpen(), what + ": still open after " + reply);
                    assertEquals(malformedBefore, counters.get(ApiCounter.MALFORMED_FRAMES), what);
                    greeted |= expected instanceof ApiRequest.Hello;
                    served++;
                }
            }
            channel.finishAndReleaseAll();
        }
        assertEquals(0, counters.get(ApiCounter.CONNECTIONS_OPEN), "every connection closed and counted so");
        assertTrue(refused > INPUTS / 20 && served > INPUTS / 2, refused + " refused, " + served + " served");
    }

    @Test
    void shouldSurviveStreamsOfBrokenFraming() {
        SplittableRandom rng = new SplittableRandom(SEED + 1);
        int frames = 0;
        int closedByError = 0;
        int probesAnswered = 0;
        int probesSwallowed = 0;
        byte[] previous = withPrefix(body(rng, validRequest(rng)));
        while (frames < INPUTS) {
            EmbeddedChannel channel = connect();
            String what = "seed=" + SEED + " stream at frame #" + frames;
            ByteBuf stream = Unpooled.buffer();
            if (rng.nextInt(10) != 0) {
                stream.writeBytes(withPrefix(body(rng, hello(rng))));
            }
            int count = 1 + rng.nextInt(6);
            for (int f = 0; f < count; f++) {
                stream.writeBytes(withPrefix(body(rng, validRequest(rng))));
            }
            frames += count;
            byte[] bytes = new byte[stream.readableBytes()];
            stream.readBytes(bytes);
            byte[] mutated = rng.nextInt(10) == 0 ? Fuzz.garbage(rng, rng.nextInt(300))
                    : Fuzz.mutate(rng, bytes, previous, 4);
            previous = bytes;
            long closingsBefore = closings();
            write(rng, channel, mutated);
            write(rng, channel, withPrefix(body(rng, new ApiRequest.Stats(PROBE_ID))));
            List<ApiFrame> out = replies(channel);
            boolean openBeforeEnd = channel.isOpen();
            channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            channel.runPendingTasks();
            channel.checkException();
            out.addAll(replies(channel));
            assertFalse(channel.isOpen(), what + ": the end of input closes");
            List<ApiFrame> errors = out.stream().filter(f -> f instanceof ApiReply.Error e
                    && (e.code() == ApiException.Code.MALFORMED_FRAME
                    || e.code() == ApiException.Code.UNSUPPORTED_VERSION)).toList();
            assertTrue(errors.size() <= 1, what + ": one closing ERROR at most: " + out);
            assertEquals(closingsBefore + errors.size(), closings(), what + ": counted once: " + out);
            if (errors.isEmpty() && !endsOnAFrame(mutated)) {
                probesSwallowed++;   // a length field took in exactly the STATS: still one stream, no error due
            } else if (errors.isEmpty()) {
                assertTrue(openBeforeEnd, what);
                assertTrue(out.stream().anyMatch(f -> f.requestId() == PROBE_ID), () -> what + ": the STATS after it"
                        + " was answered: " + out + " stream " + java.util.HexFormat.of().formatHex(mutated));
                probesAnswered++;
            } else {
                assertEquals(errors.get(0), out.get(out.size() - 1), what + ": the ERROR comes last: " + out);
                closedByError++;
            }
            channel.finishAndReleaseAll();
        }
        assertEquals(0, counters.get(ApiCounter.CONNECTIONS_OPEN), "every connection closed and counted so");
        assertTrue(closedByError > 100 && probesAnswered > 100, closedByError + " closed by an ERROR, "
                + probesAnswered + " answered the probe, " + probesSwallowed + " took it into a frame");
    }

    @Test
    void shouldWriteNoReplyAfterTheClosingError() {
        // Found by the stream fuzzing: a reply to a request still in flight was written after the ERROR that
        // closes the connection (on a socket, while the ERROR waits to be flushed to a slow reader).
        SplittableRandom rng = new SplittableRandom(SEED);
        EmbeddedChannel channel = connect();
        ByteBuf stream = Unpooled.buffer();
        stream.writeBytes(withPrefix(body(rng, new ApiRequest.Hello(1, ApiProtocol.VERSION, "app"))));
        stream.writeBytes(withPrefix(body(rng, new ApiRequest.Send(2, 7, new byte[100]))));
        stream.writeBytes(withPrefix(new byte[] {0x3f, 0, 0, 0, 3}));
        channel.writeInbound(stream);
        channel.runPendingTasks();

        List<ApiFrame> out = replies(channel);
        assertEquals(2, out.size(), out.toString());
        assertEquals(new ApiReply.HelloReply(1, ApiProtocol.VERSION, 3, MAX_PAYLOAD), out.get(0));
        assertEquals(ApiException.Code.MALFORMED_FRAME, ((ApiReply.Error) out.get(1)).code());
        assertEquals(3, out.get(1).requestId());
        assertFalse(channel.isOpen());
        assertEquals(0, counters.get(ApiCounter.REQUESTS_IN_FLIGHT), "the dropped reply still ends its request");
        channel.finishAndReleaseAll();
    }

    /** Whether the length prefixes of {@code stream} split it into whole frames, so what follows starts a frame. */
    private boolean endsOnAFrame(byte[] stream) {
        ByteBuf buf = Unpooled.wrappedBuffer(stream);
        while (buf.readableBytes() >= ApiProtocol.LENGTH_FIELD_LENGTH) {
            long length = buf.readUnsignedInt();
            if (length > config.maxFrameLength() || length > buf.readableBytes()) {
                return false;
            }
            buf.skipBytes((int) length);
        }
        return !buf.isReadable();
    }

    private long closings() {
        return counters.get(ApiCounter.MALFORMED_FRAMES);
    }

    private EmbeddedChannel connect() {
        LargeFrameBudget.Account budget = new LargeFrameBudget(1 << 20, counters).open();
        return new EmbeddedChannel(new FrameSplitter(config.maxFrameLength(), config.partialFrameTimeout().toMillis(),
                budget), new FrameCodecHandler(counters), new ApiConnection(node, counters, config,
                        ApiConnection.Limits.of(node, config), budget,
                        PeerCredentialsLookup.real(), new PrincipalQuotas(ApiAccess.defaults(), System::nanoTime)));
    }

    /** Writes {@code bytes} in 1 to 4 random chunks, then runs what the connection queued (its replies). */
    private static void write(SplittableRandom rng, EmbeddedChannel channel, byte[] bytes) {
        int at = 0;
        for (int chunks = 1 + rng.nextInt(4); at < bytes.length && channel.isOpen(); chunks--) {
            int length = chunks == 1 ? bytes.length - at : rng.nextInt(bytes.length - at + 1);
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, at, length));
            at += length;
            channel.runPendingTasks();
        }
        channel.runPendingTasks();
        channel.checkException();
    }

    /** What the daemon wrote, decoded as a client decodes it: every frame must decode. */
    private static List<ApiFrame> replies(EmbeddedChannel channel) {
        List<ApiFrame> out = new ArrayList<>();
        for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
            try {
                while (buf.isReadable()) {
                    int length = buf.readInt();
                    out.add(ApiFrameCodec.decode(buf.readSlice(length)));
                }
            } catch (MalformedFrameException e) {
                throw new AssertionError("the daemon wrote a frame its clients cannot read", e);
            } finally {
                buf.release();
            }
        }
        return out;
    }

    private ApiRequest hello(SplittableRandom rng) {
        int version = rng.nextInt(10) == 0 ? rng.nextInt(4) : ApiProtocol.VERSION;
        return new ApiRequest.Hello(nextId(), version, "client-" + "x".repeat(rng.nextInt(rng.nextInt(20) == 0
                ? 300 : 30)));
    }

    /** A request of any type after HELLO, with a realistic body. */
    private ApiRequest validRequest(SplittableRandom rng) {
        int group = rng.nextInt(10) == 0 ? rng.nextInt() : rng.nextInt(4);
        return switch (rng.nextInt(8)) {
            case 0 -> new ApiRequest.Join(nextId(), group);
            case 1 -> new ApiRequest.Leave(nextId(), group);
            case 2, 3 -> new ApiRequest.Send(nextId(), group, payload(rng));
            case 4 -> new ApiRequest.TrySend(nextId(), group, payload(rng));
            case 5 -> new ApiRequest.Options(nextId(), rng.nextInt(4));
            case 6 -> new ApiRequest.Stats(nextId());
            default -> rng.nextBoolean() ? new ApiRequest.Join(nextId(), group) : hello(rng);
        };
    }

    /** Mostly a few hundred bytes, sometimes up to the largest and a little beyond. */
    private static byte[] payload(SplittableRandom rng) {
        int pick = rng.nextInt(100);
        int length = pick < 90 ? rng.nextInt(1_500) : pick < 98 ? rng.nextInt(MAX_PAYLOAD + 1)
                : MAX_PAYLOAD + rng.nextInt(ApiProtocol.payloadLimit(ApiProtocol.DEFAULT_MAX_FRAME_LENGTH)
                - MAX_PAYLOAD + 1);
        byte[] payload = new byte[length];
        Arrays.fill(payload, (byte) length);
        return payload;
    }

    private int nextId() {
        int id = nextId++;
        if (nextId >= PROBE_ID) {
            nextId = 1;
        }
        return id;
    }

    /** The frame's bytes after the length prefix. */
    private static byte[] body(SplittableRandom rng, ApiFrame frame) {
        ByteBuf buf = Unpooled.buffer();
        ApiFrameCodec.encode(frame, buf);
        buf.skipBytes(ApiProtocol.LENGTH_FIELD_LENGTH);
        byte[] body = new byte[buf.readableBytes()];
        buf.readBytes(body);
        return body;
    }

    private static byte[] withPrefix(byte[] body) {
        byte[] frame = new byte[ApiProtocol.LENGTH_FIELD_LENGTH + body.length];
        Unpooled.wrappedBuffer(frame).setInt(0, body.length);
        System.arraycopy(body, 0, frame, ApiProtocol.LENGTH_FIELD_LENGTH, body.length);
        return frame;
    }

    private static ApiFrame decodeOrNull(byte[] body) {
        try {
            return ApiFrameCodec.decode(Unpooled.wrappedBuffer(body));
        } catch (MalformedFrameException e) {
            return null;
        }
    }

    /** The codec's refusal of {@code body}, or null (an oversized frame counts as refused with request id 0). */
    private MalformedFrameException refusal(byte[] body) {
        if (body.length > config.maxFrameLength()) {
            return new MalformedFrameException(0, "too long");
        }
        try {
            ApiFrameCodec.decode(Unpooled.wrappedBuffer(body));
            return null;
        } catch (MalformedFrameException e) {
            return e;
        }
    }
}
