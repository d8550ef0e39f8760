package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.MessageId;
import io.ricochet.support.Fuzz;
import io.ricochet.wire.DataFlyweight;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes {@link BundleFormat}: valid payloads (SINGLE and BUNDLE, of messages from empty to the largest a DATA
 * packet holds), each then mutated (bits flipped, length fields changed, truncated, extended, ranges cut or doubled,
 * spliced with another payload) or replaced by garbage. Every payload sits at the very end of its array after some
 * unrelated bytes, so a read past it throws. {@link BundleFormat#count} must agree with a plain reference parser
 * written here: a payload is either malformed as a whole or read as exactly the messages that parser finds, by
 * {@link BundleFormat#forEach}. An unmutated payload always reads back as what was written. The EngineDriver counts
 * and reports as lost whatever {@code count} calls malformed ({@code DaemonCounter.MALFORMED_DATAGRAMS}).
 * {@code -Dricochet.fuzz.inputs=N} sets the payloads (10^5 by default).
 */
class BundleFormatFuzzTest {
    private static final long SEED = Fuzz.seed(0x42554e444c45L);
    private static final int INPUTS = Fuzz.inputs(100_000);

    @Test
    void shouldReadEveryPayloadWholeOrRefuseItWhole() {
        SplittableRandom rng = new SplittableRandom(SEED);
        byte[] previous = BundleFormatTest.single(new byte[] {1});
        int malformed = 0;
        int bundles = 0;
        for (int i = 0; i < INPUTS; i++) {
            List<byte[]> written = messages(rng);
            byte[] valid = written.size() == 1 && rng.nextBoolean() ? BundleFormatTest.single(written.get(0))
                    : BundleFormatTest.bundle(written.toArray(byte[][]::new));
            String what = "seed=" + SEED + " input #" + i;
            if (valid.length <= DataFlyweight.MAX_PAYLOAD) {
                assertMessages(written, read(rng, valid), what + " (valid)");
            }
            int pick = rng.nextInt(10);
            byte[] payload = pick == 0 ? Fuzz.garbage(rng, rng.nextInt(64))
                    : Fuzz.mutate(rng, valid, previous, pick < 7 ? 1 : 4);
            List<byte[]> expected = reference(payload);
            List<byte[]> got = read(rng, payload);
            if (expected == null) {
                assertEquals(null, got, what + ": malformed, yet read");
                malformed++;
            } else {
                assertMessages(expected, got, what);
                bundles += payload[0] == BundleFormat.BUNDLE ? 1 : 0;
            }
            previous = valid;
        }
        assertTrue(malformed > INPUTS / 10 && bundles > INPUTS / 20,
                "both sides exercised: " + malformed + " malformed, " + bundles + " mutated bundles read");
    }

    /** 1 to 12 messages, mostly of a few hundred bytes, sometimes up to the largest payload. */
    private static List<byte[]> messages(SplittableRandom rng) {
        int count = rng.nextInt(4) == 0 ? 1 : 1 + rng.nextInt(12);
        List<byte[]> out = new ArrayList<>();
        int room = DataFlyweight.MAX_PAYLOAD - BundleFormat.KIND;
        for (int m = 0; m < count && room >= BundleFormat.LENGTH; m++) {
            int size = rng.nextInt(50) == 0 ? rng.nextInt(room - BundleFormat.LENGTH + 1)
                    : rng.nextInt(Math.min(300, room - BundleFormat.LENGTH + 1));
            byte[] message = new byte[size];
            Arrays.fill(message, (byte) (m + 1));
            if (size > 0) {
                message[0] = (byte) rng.nextInt(256);   // the first byte of a SINGLE's message is data, whatever it is
            }
            out.add(message);
            room -= BundleFormat.LENGTH + size;
        }
        return out;
    }

    /**
     * The messages of {@code payload} as read by {@link BundleFormat}, or null if it is malformed; the payload is
     * placed after up to 16 other bytes, at the end of the array.
     */
    private static List<byte[]> read(SplittableRandom rng, byte[] payload) {
        int offset = rng.nextInt(17);
        byte[] buffer = new byte[offset + payload.length];
        Arrays.fill(buffer, 0, offset, (byte) BundleFormat.BUNDLE);
        System.arraycopy(payload, 0, buffer, offset, payload.length);
        int count = BundleFormat.count(buffer, offset, payload.length);
        if (count == BundleFormat.MALFORMED) {
            return null;
        }
        List<byte[]> out = new ArrayList<>();
        int returned = BundleFormat.forEach(buffer, offset, payload.length, (index, b, at, length) -> {
            assertEquals(out.size(), index, "messages in order");
            assertTrue(at >= offset && at + length <= buffer.length, "a message within the payload");
            out.add(Arrays.copyOfRange(b, at, at + length));
        });
        assertEquals(count, returned);
        assertEquals(count, out.size());
        return out;
    }

    /** The format as docs/design/daemon.md states it, parsed the plain way: the oracle (also of EngineDriverTest). */
    static List<byte[]> reference(byte[] payload) {
        if (payload.length == 0) {
            return null;
        }
        if (payload[0] == BundleFormat.SINGLE) {
            return List.of(Arrays.copyOfRange(payload, 1, payload.length));
        }
        if (payload[0] != BundleFormat.BUNDLE) {
            return null;
        }
        List<byte[]> out = new ArrayList<>();
        int at = 1;
        while (at < payload.length) {
            if (payload.length - at < 2) {
                return null;
            }
            int size = (payload[at] & 0xFF) << 8 | payload[at + 1] & 0xFF;
            if (at + 2 + size > payload.length) {
                return null;
            }
            out.add(Arrays.copyOfRange(payload, at + 2, at + 2 + size));
            at += 2 + size;
        }
        return out.isEmpty() || out.size() > MessageId.PER_DATAGRAM ? null : out;
    }

    private static void assertMessages(List<byte[]> expected, List<byte[]> got, String what) {
        assertTrue(got != null, what + ": well-formed, yet refused");
        assertEquals(expected.size(), got.size(), what);
        for (int m = 0; m < expected.size(); m++) {
            assertArrayEquals(expected.get(m), got.get(m), what + " message " + m);
        }
    }
}
