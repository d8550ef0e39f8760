package io.ricochet.control.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.MessageType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the control decoder: random bodies (with a random or a valid type byte) and mutations of valid frames
 * of every type (byte flips, truncation, extension, changed type, overwritten counts and text lengths). The
 * decoder may only return a message or throw {@link ControlDecodeException}; a body it accepts must re-encode to
 * exactly the same bytes. The same inputs, with their length fields, are then fed through {@link ControlPipeline}
 * in random chunks, where only {@code DecoderException}s may surface. The seed is fixed (override with
 * {@code -Dricochet.fuzz.seed=N}) and appears in every failure message.
 */
class ControlCodecFuzzTest {
    private static final long SEED = Long.getLong("ricochet.fuzz.seed", 0x474d5346555a5aL);
    private static final int RANDOM_BODIES = 100_000;
    private static final int MUTATED_FRAMES = 100_000;
    private static final int STREAMS = 2_000;
    private static final int[] TYPES = {
        MessageType.REGISTER, MessageType.JOIN, MessageType.LEAVE, MessageType.NODE_FAILED,
        MessageType.NODE_RECOVERED, MessageType.DETECTOR_FAILED, MessageType.DETECTOR_RECOVERED,
        MessageType.GROUP_VIEW, MessageType.MEMBER_EVENT, MessageType.ERROR, MessageType.SERVING,
        MessageType.REDIRECT, MessageType.WATCH, MessageType.WATCH_LIST, MessageType.GMS_STATUS,
    };

    @Test
    void shouldOnlyThrowDecodeErrorsOnRandomBodies() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        int accepted = 0;
        for (int i = 0; i < RANDOM_BODIES; i++) {
            byte[] body = new byte[rnd.nextInt(64)];
            rnd.nextBytes(body);
            if (body.length > 0 && rnd.nextBoolean()) {
                body[0] = (byte) TYPES[rnd.nextInt(TYPES.length)];
            }
            accepted += probe(body, "random #" + i) ? 1 : 0;
        }
        assertTrue(accepted > 100, "seed=" + SEED + ": only " + accepted + " random bodies decoded");
    }

    @Test
    void shouldOnlyThrowDecodeErrorsOnMutatedFrames() {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0x9E3779B97F4A7C15L);
        List<ControlMessage> samples = Messages.all();
        int accepted = 0;
        for (int i = 0; i < MUTATED_FRAMES; i++) {
            ControlMessage sample = samples.get(i % samples.size());
            byte[] frame = Messages.frame(sample);
            byte[] body = Arrays.copyOfRange(frame, ControlCodec.LENGTH_FIELD_BYTES, frame.length);
            int mutations = 1 + rnd.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                body = mutate(rnd, body);
            }
            accepted += probe(body, "mutated " + sample) ? 1 : 0;
        }
        assertTrue(accepted > 1000, "seed=" + SEED + ": only " + accepted + " mutated frames decoded");
    }

    @Test
    void shouldSurfaceOnlyDecoderExceptionsFromThePipeline() {
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        List<ControlMessage> samples = Messages.all();
        for (int i = 0; i < STREAMS; i++) {
            ByteBuf stream = Unpooled.buffer();
            int frames = 1 + rnd.nextInt(4);
            for (int f = 0; f < frames; f++) {
                byte[] frame = Messages.frame(samples.get(rnd.nextInt(samples.size())));
                if (rnd.nextInt(3) == 0) {
                    frame = mutate(rnd, frame);
                }
                stream.writeBytes(frame);
            }
            feed(rnd, stream, "stream #" + i);
        }
    }

    /** Decodes {@code body}; returns whether it decoded (then checks the canonical re-encoding). */
    private static boolean probe(byte[] body, String what) {
        ControlMessage message;
        try {
            message = ControlCodec.decode(Unpooled.wrappedBuffer(body));
        } catch (ControlDecodeException expected) {
            return false;
        } catch (RuntimeException e) {
            throw new AssertionError("seed=" + SEED + " " + what + " body=" + HexFormat.of().formatHex(body), e);
        }
        byte[] again = Messages.frame(message);
        assertArrayEquals(body, Arrays.copyOfRange(again, ControlCodec.LENGTH_FIELD_BYTES, again.length),
                "seed=" + SEED + " " + what + " decoded to " + message + " which re-encodes differently");
        return true;
    }

    private static void feed(SplittableRandom rnd, ByteBuf stream, String what) {
        List<Throwable> surfaced = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel();
        ControlPipeline.install(channel.pipeline());
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                surfaced.add(cause);
                ctx.close();
            }
        });
        while (stream.isReadable() && channel.isOpen()) {
            channel.writeInbound(stream.readRetainedSlice(1 + rnd.nextInt(Math.min(64, stream.readableBytes()))));
        }
        stream.release();
        channel.finishAndReleaseAll();
        for (Throwable t : surfaced) {
            if (!ControlPipeline.isMalformedInput(t)) {
                fail("seed=" + SEED + " " + what + ": " + t, t);
            }
        }
        assertEquals(true, surfaced.size() <= 1 || !channel.isOpen(), what);
    }

    private static byte[] mutate(SplittableRandom rnd, byte[] in) {
        byte[] out = in.clone();
        switch (rnd.nextInt(7)) {
            case 0 -> {
                if (out.length > 0) {
                    out[rnd.nextInt(out.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
            }
            case 1 -> out = Arrays.copyOf(out, rnd.nextInt(out.length + 1));
            case 2 -> {
                out = Arrays.copyOf(out, out.length + 1 + rnd.nextInt(12));
                for (int i = in.length; i < out.length; i++) {
                    out[i] = (byte) rnd.nextInt(256);
                }
            }
            case 3 -> {
                if (out.length > 0) {
                    out[0] = (byte) TYPES[rnd.nextInt(TYPES.length)];
                }
            }
            case 4 -> {
                if (out.length > 2) {
                    int at = rnd.nextInt(out.length - 1);
                    out[at] = (byte) rnd.nextInt(256);
                    out[at + 1] = (byte) rnd.nextInt(256);
                }
            }
            case 5 -> {
                if (out.length > 0) {
                    out[rnd.nextInt(out.length)] = (byte) (rnd.nextBoolean() ? 0 : 0xFF);
                }
            }
            default -> {
                if (out.length > 1) {
                    int a = rnd.nextInt(out.length);
                    int b = rnd.nextInt(out.length);
                    byte t = out[a];
                    out[a] = out[b];
                    out[b] = t;
                }
            }
        }
        return out;
    }
}
