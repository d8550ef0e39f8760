package io.ricochet.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.wire.FrameValidator.Verdict;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The FOUNTAIN frame: a written frame reads back field for field, and the validator refuses each broken rule. */
class FountainFlyweightTest {
    private static final int[] LENGTHS = {5, 0, 9, 7};

    private static byte[] frame() {
        byte[] symbol = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        byte[] frame = new byte[FountainFlyweight.frameLength(LENGTHS.length, 9)];
        int length = new FountainFlyweight().wrap(frame, 0).write(7, 42, 1000, LENGTHS.length, 9, -5L, 1L << 40,
                LENGTHS, symbol, 0);
        assertEquals(frame.length, length);
        return frame;
    }

    @Test
    void shouldReadBackEveryFieldItWrote() {
        byte[] frame = frame();
        FountainFlyweight f = new FountainFlyweight().wrap(frame, 0);
        assertEquals(Verdict.OK, FrameValidator.check(frame, 0, frame.length));
        assertEquals(FrameType.FOUNTAIN, f.type());
        assertEquals(7, f.source());
        assertEquals(42, f.group());
        assertEquals(1000, f.first());
        assertEquals(4, f.count());
        assertEquals(9, f.symbolSize());
        assertEquals(-5L, f.seed());
        assertEquals(1L << 40, f.symbolId());
        for (int i = 0; i < LENGTHS.length; i++) {
            assertEquals(LENGTHS[i], f.length(i));
        }
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9},
                Arrays.copyOfRange(frame, f.symbolOffset(), f.symbolOffset() + 9));
        assertEquals("FOUNTAIN", FrameType.name(FrameType.FOUNTAIN));
    }

    @Test
    void shouldRefuseEachBrokenRule() {
        assertEquals(Verdict.BAD_FIELD, broken(FountainFlyweight.COUNT_OFFSET, 0), "no packets");
        assertEquals(Verdict.BAD_FIELD, broken(FountainFlyweight.COUNT_OFFSET, FountainFlyweight.MAX_PACKETS + 1),
                "too many packets");
        assertEquals(Verdict.BAD_LENGTH, broken(FountainFlyweight.COUNT_OFFSET, 3), "count disagrees with length");
        assertEquals(Verdict.BAD_FIELD, broken(FountainFlyweight.SYMBOL_SIZE_OFFSET, 0), "empty symbol");
        assertEquals(Verdict.BAD_LENGTH, broken(FountainFlyweight.SYMBOL_SIZE_OFFSET, 10), "size disagrees");
        assertEquals(Verdict.BAD_FIELD, broken(FountainFlyweight.LENGTHS_OFFSET, 10), "a packet over the size");
        assertEquals(Verdict.BAD_FIELD, broken(FountainFlyweight.LENGTHS_OFFSET + 4, 8), "no packet as long as it");

        byte[] negative = frame();
        Bytes.putLong(negative, FountainFlyweight.FIRST_OFFSET, -1);
        assertEquals(Verdict.BAD_FIELD, FrameValidator.check(negative, 0, negative.length), "negative first");
        byte[] overflow = frame();
        Bytes.putLong(overflow, FountainFlyweight.FIRST_OFFSET, Long.MAX_VALUE - 2);
        assertEquals(Verdict.BAD_FIELD, FrameValidator.check(overflow, 0, overflow.length), "range past MAX_VALUE");
        byte[] shortFrame = Arrays.copyOf(frame(), FountainFlyweight.LENGTHS_OFFSET - 1);
        Bytes.putShort(shortFrame, HeaderFlyweight.FRAME_LENGTH_OFFSET, shortFrame.length);
        assertEquals(Verdict.BAD_LENGTH, FrameValidator.check(shortFrame, 0, shortFrame.length), "truncated");
    }

    @Test
    void shouldSizeRangesToTheFrame() {
        assertEquals(202, FountainFlyweight.maxPackets(1024, HeaderFlyweight.STANDARD_FRAME_LENGTH));
        assertEquals(FountainFlyweight.MAX_PACKETS, FountainFlyweight.maxPackets(100, 9000));
        assertEquals(1, FountainFlyweight.symbolSize(0), "a range of empty payloads has 1-byte symbols");
    }

    private static Verdict broken(int at, int value) {
        byte[] frame = frame();
        Bytes.putShort(frame, at, value);
        return FrameValidator.check(frame, 0, frame.length);
    }
}
