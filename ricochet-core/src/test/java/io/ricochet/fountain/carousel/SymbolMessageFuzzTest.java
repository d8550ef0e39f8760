package io.ricochet.fountain.carousel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the symbol message parser. Inputs are random byte arrays (half starting with the magic and version) and
 * valid messages under one to three random mutations (a byte changed, a field set to a boundary value, the message
 * cut or extended). The parser's verdict must agree with an independent reference written from the documented
 * layout; an accepted message must re-encode to the same bytes. Every input then goes to two receivers: one that
 * waits for a file no input names (so nothing is decoded) must count exactly the rejected inputs as malformed, and
 * one that takes the first file it sees (and decodes the well-formed symbols of it) must never throw. The seed is
 * fixed ({@code -Dricochet.fuzz.seed=N} overrides it) and appears in every message.
 */
class SymbolMessageFuzzTest {
    private static final long SEED = Long.getLong("ricochet.fuzz.seed", 0x4341524f55534cL);
    private static final int ITERATIONS = 40_000;
    private static final long MAX_BYTES = 1 << 20;

    @Test
    void shouldNeverThrowAndRejectExactlyWhatTheReferenceRejects() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        CarouselReceiver waiting = new CarouselReceiver(MAX_BYTES, 0x0123456789abcdefL);
        CarouselReceiver first = new CarouselReceiver(MAX_BYTES, null);
        long rejected = 0;
        long accepted = 0;
        for (int iter = 0; iter < ITERATIONS; iter++) {
            byte[] m = iter % 4 == 0 ? randomBytes(rnd) : mutate(rnd, validMessage(rnd));
            String where = "seed " + SEED + ", iteration " + iter + ", input " + HexFormat.of().formatHex(m);
            boolean expected = reference(m);
            SymbolMessage.Parsed parsed = SymbolMessage.parse(m, MAX_BYTES);
            assertEquals(expected, parsed instanceof SymbolMessage.Parsed.Symbol, where + ": " + parsed);
            if (parsed instanceof SymbolMessage.Parsed.Symbol s) {
                accepted++;
                assertEquals(HexFormat.of().formatHex(m),
                        HexFormat.of().formatHex(SymbolMessage.encode(s.file(), s.id(), m,
                                SymbolMessage.HEADER_LENGTH)), where);
            } else {
                rejected++;
                assertTrue(!((SymbolMessage.Parsed.Malformed) parsed).reason().isEmpty(), where);
            }
            waiting.offer(m);
            first.offer(m);
            assertEquals(rejected, waiting.malformed(), where);
        }
        assertTrue(accepted > ITERATIONS / 10 && rejected > ITERATIONS / 10,
                "seed " + SEED + ": both kinds must be exercised: accepted " + accepted + ", rejected " + rejected);
        assertTrue(first.malformed() <= rejected, "seed " + SEED + ": it stops counting once its file ended");
    }

    /** The documented layout, checked independently of the parser. */
    private static boolean reference(byte[] m) {
        if (m.length < 81) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(m);
        int t = b.getShort(6) & 0xFFFF;
        long length = b.getLong(8);
        double c = b.getDouble(48);
        double delta = b.getDouble(56);
        long id = b.getLong(72);
        return b.getInt(0) == 0x5246544E && m[4] == 1 && m[5] == 0 && t == m.length - 80 && id >= 0
                && length >= 1 && length <= MAX_BYTES && (length + t - 1) / t <= (1 << 20)
                && c > 0 && c <= 1 && delta > 0 && delta < 1;
    }

    private static byte[] validMessage(SplittableRandom rnd) {
        int t = 1 + rnd.nextInt(64);
        long length = 1 + rnd.nextLong(4 * t);
        byte[] hash = new byte[32];
        rnd.nextBytes(hash);
        CarouselFile file = new CarouselFile(length, hash, t, 0.01 + rnd.nextDouble() * 0.2,
                0.001 + rnd.nextDouble() * 0.9, rnd.nextLong(), MAX_BYTES);
        byte[] symbol = new byte[t];
        rnd.nextBytes(symbol);
        return SymbolMessage.encode(file, rnd.nextLong(Long.MAX_VALUE), symbol, 0);
    }

    private static byte[] randomBytes(SplittableRandom rnd) {
        byte[] m = new byte[rnd.nextInt(200)];
        rnd.nextBytes(m);
        if (rnd.nextBoolean() && m.length >= 5) {
            ByteBuffer.wrap(m).putInt(0, 0x5246544E).put(4, (byte) 1);
        }
        return m;
    }

    private static final int[] LONG_FIELDS = {8, 48, 56, 64, 72};
    private static final long[] BOUNDARIES = {
        0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, MAX_BYTES, MAX_BYTES + 1,
        Double.doubleToLongBits(Double.NaN), Double.doubleToLongBits(1.0), Double.doubleToLongBits(0.0),
        Double.doubleToLongBits(Double.POSITIVE_INFINITY), Double.doubleToLongBits(-0.5),
        Double.doubleToLongBits(Double.MIN_VALUE),
    };

    private static byte[] mutate(SplittableRandom rnd, byte[] m) {
        for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
            switch (rnd.nextInt(6)) {
                case 0 -> m[rnd.nextInt(m.length)] ^= (byte) (1 + rnd.nextInt(255));
                case 1 -> {
                    int field = LONG_FIELDS[rnd.nextInt(LONG_FIELDS.length)];
                    if (m.length >= field + 8) {
                        ByteBuffer.wrap(m).putLong(field, BOUNDARIES[rnd.nextInt(BOUNDARIES.length)]);
                    }
                }
                case 2 -> {
                    if (m.length >= 8) {
                        ByteBuffer.wrap(m).putShort(6, (short) rnd.nextInt(1 << 16));
                    }
                }
                case 3 -> m = java.util.Arrays.copyOf(m, rnd.nextInt(m.length + 1));
                case 4 -> m = java.util.Arrays.copyOf(m, m.length + 1 + rnd.nextInt(8));
                default -> {
                    if (m.length > 8) {
                        m[rnd.nextInt(4, 6)] = (byte) rnd.nextInt(3);
                    }
                }
            }
            if (m.length == 0) {
                break;
            }
        }
        return m;
    }
}
