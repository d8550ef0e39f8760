package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The FEC REPAIR frame: what is written is read back, and every layout rule is enforced. */
class FecRepairFlyweightTest {
    /** A valid repair frame at {@code offset} in a buffer with {@code pad} bytes of slack after it. */
    static byte[] repair(int offset, int pad, int source, int group, long start, int[] lengths, int c, int index,
                         SplittableRandom rng) {
        int coded = Arrays.stream(lengths).max().orElse(0);
        byte[] buffer = new byte[offset + FecRepairFlyweight.frameLength(lengths.length, coded) + pad];
        FecRepairFlyweight f = new FecRepairFlyweight().wrap(buffer, offset)
                .writeStart(source, group, start, lengths.length, c, index, coded);
        for (int j = 0; j < lengths.length; j++) {
            f.dataLength(j, lengths[j]);
        }
        for (int i = 0; i < coded; i++) {
            buffer[f.payloadOffset() + i] = (byte) rng.nextInt(256);
        }
        return buffer;
    }

    static byte[] repair(SplittableRandom rng) {
        int r = 1 + rng.nextInt(FecRepairFlyweight.MAX_R);
        int[] lengths = new int[r];
        int maxLength = HeaderFlyweight.MAX_FRAME_LENGTH - FecRepairFlyweight.frameLength(r, 0);
        for (int j = 0; j < r; j++) {
            lengths[j] = rng.nextInt(Math.min(1024, maxLength) + 1);
        }
        int c = 1 + rng.nextInt(FecRepairFlyweight.MAX_C);
        return repair(0, 0, rng.nextInt(), rng.nextInt(), rng.nextLong(Long.MAX_VALUE - r), lengths, c,
                rng.nextInt(c), rng);
    }

    @Test
    void shouldReadBackEveryFieldItWrote() {
        SplittableRandom rng = new SplittableRandom(1);
        int[] lengths = {100, 1024, 0, 7, 1024, 512, 3, 64};
        byte[] buffer = repair(5, 9, 42, 7, 1_000_000_007L, lengths, 5, 4, rng);
        FecRepairFlyweight f = new FecRepairFlyweight().wrap(buffer, 5);
        assertEquals(FrameType.FEC_FIRST, f.type());
        assertEquals(FecRepairFlyweight.TYPE, f.type());
        assertEquals(HeaderFlyweight.MAGIC, f.magic());
        assertEquals(42, f.source());
        assertEquals(7, f.group());
        assertEquals(1_000_000_007L, f.blockStart());
        assertEquals(8, f.r());
        assertEquals(5, f.c());
        assertEquals(4, f.index());
        assertEquals(1024, f.codedLength());
        for (int j = 0; j < lengths.length; j++) {
            assertEquals(lengths[j], f.dataLength(j));
        }
        assertEquals(1070, f.frameLength(), "r = 8 packets of 1 KB: one datagram under a 1500-byte MTU");
        assertEquals(5 + 30 + 16, f.payloadOffset());
        assertEquals(Verdict.OK, FecFrameValidator.check(buffer, 5, f.frameLength()));
        assertEquals(Verdict.OK, FrameValidator.checkHeader(buffer, 5, f.frameLength()));
        assertEquals(Verdict.UNKNOWN_TYPE, FrameValidator.check(buffer, 5, f.frameLength()),
                "the shared validator leaves the FEC range to FEC");
    }

    @Test
    void shouldAcceptRandomValidFrames() {
        SplittableRandom rng = new SplittableRandom(2);
        for (int i = 0; i < 2000; i++) {
            byte[] frame = repair(rng);
            assertEquals(Verdict.OK, FecFrameValidator.check(frame, 0, frame.length));
        }
    }

    private static Verdict mutated(Consumer<FecRepairFlyweight> change) {
        byte[] frame = repair(0, 0, 1, 2, 16, new int[] {10, 20, 30}, 3, 1, new SplittableRandom(3));
        change.accept(new FecRepairFlyweight().wrap(frame, 0));
        return FecFrameValidator.check(frame, 0, frame.length);
    }

    private static void set(FecRepairFlyweight f, int fieldOffset, int value) {
        f.buffer()[fieldOffset] = (byte) value;
    }

    @Test
    void shouldRejectEveryBrokenRule() {
        assertEquals(Verdict.OK, mutated(f -> { }));
        assertEquals(Verdict.BAD_FIELD, mutated(f -> set(f, FecRepairFlyweight.R_OFFSET, 0)), "r = 0");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> set(f, FecRepairFlyweight.R_OFFSET, 65)), "r > MAX_R");
        assertEquals(Verdict.BAD_LENGTH, mutated(f -> set(f, FecRepairFlyweight.R_OFFSET, 4)), "r vs frame length");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> set(f, FecRepairFlyweight.C_OFFSET, 0)), "c = 0");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> set(f, FecRepairFlyweight.C_OFFSET, 33)), "c > MAX_C");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> set(f, FecRepairFlyweight.INDEX_OFFSET, 3)), "index = c");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> set(f, FecRepairFlyweight.RESERVED_OFFSET, 1)), "reserved");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> Bytes.putLong(f.buffer(), FecRepairFlyweight.BLOCK_START_OFFSET,
                -1)), "negative block start");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> Bytes.putLong(f.buffer(), FecRepairFlyweight.BLOCK_START_OFFSET,
                Long.MAX_VALUE - 1)), "block end overflows");
        assertEquals(Verdict.BAD_FIELD, mutated(f -> f.dataLength(2, 29)), "coded length is not the longest");
        assertEquals(Verdict.BAD_LENGTH, mutated(f -> Bytes.putShort(f.buffer(),
                FecRepairFlyweight.CODED_LENGTH_OFFSET, 31)), "coded length vs frame length");
        assertEquals(Verdict.UNKNOWN_TYPE, mutated(f -> set(f, HeaderFlyweight.TYPE_OFFSET, 25)), "unused FEC id");
        assertEquals(Verdict.BAD_MAGIC, mutated(f -> set(f, HeaderFlyweight.MAGIC_OFFSET, 0)));
        assertEquals(Verdict.BAD_LENGTH, mutated(f -> f.frameLength(f.frameLength() - 1)));
    }

    @Test
    void shouldRejectTruncatedAndExtendedFrames() {
        byte[] frame = repair(0, 0, 1, 2, 16, new int[] {10, 20, 30}, 3, 1, new SplittableRandom(4));
        for (int length = 0; length < frame.length; length++) {
            byte[] cut = Arrays.copyOf(frame, length);
            assertEquals(false, FecFrameValidator.check(cut, 0, length) == Verdict.OK, "cut to " + length);
        }
        byte[] longer = Arrays.copyOf(frame, frame.length + 1);
        new FecRepairFlyweight().wrap(longer, 0).frameLength(longer.length);
        assertEquals(Verdict.BAD_LENGTH, FecFrameValidator.check(longer, 0, longer.length));
        assertEquals(Verdict.TOO_SHORT, FecFrameValidator.check(null, 0, 10));
        assertEquals(Verdict.TOO_SHORT, FecFrameValidator.check(frame, frame.length - 5, 10));
    }
}
