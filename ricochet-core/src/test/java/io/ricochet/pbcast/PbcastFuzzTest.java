package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.pbcast.TestFrames.Run;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes pbcast's receive path: random bytes with a plausible header, and mutations of valid frames of every type
 * (byte flips, truncation, extension, overwritten length, count, run and flag fields, changed types). For each
 * input the validator must not throw, must give the same verdict at a random offset in a padded array and in an
 * exact-size copy, and an accepted frame's every field must be readable inside the exact-size copy (a read past
 * the frame would throw). Then an engine must take every input without throwing, counting exactly the rejected
 * ones as invalid. The seed is fixed (override with {@code -Dricochet.fuzz.seed=N}) and in every failure message.
 */
class PbcastFuzzTest {
    private static final long SEED = Long.getLong("ricochet.fuzz.seed", 0x5042434153544655L);
    private static final int INPUTS = 60_000;
    private static final int[] TYPES = {
        FrameType.DATA, PbcastFrameType.DIGEST, PbcastFrameType.REQUEST, PbcastFrameType.RETRANSMIT,
        PbcastFrameType.INFO, PbcastFrameType.MCAST,
    };
    private static final int GROUP = 5;
    private static final int SELF = 1;
    private static final int MAX_PAYLOAD = 1024;

    private long sink;

    @Test
    void shouldNeverThrowOrReadPastTheFrame() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        PbcastEngine engine = engine();
        Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
        long rejected = 0;
        for (int i = 0; i < INPUTS; i++) {
            byte[] frame = i % 4 == 0 ? randomFrame(rnd) : mutate(rnd, validFrame(rnd, TYPES[i % TYPES.length]));
            Verdict verdict = probe(rnd, frame, i);
            verdicts.merge(verdict, 1, Integer::sum);
            rejected += verdict != Verdict.OK || refusedAfterValidation(frame) ? 1 : 0;
            try {
                engine.onPacket(frame, 0, frame.length, i * 1_000_000L);
                engine.onTimer(i * 1_000_000L);
            } catch (RuntimeException e) {
                fail("seed=" + SEED + " input " + i + " " + HexFormat.of().formatHex(frame) + ": engine threw", e);
            }
        }
        String summary = "seed=" + SEED + " verdicts=" + verdicts;
        assertTrue(verdicts.getOrDefault(Verdict.OK, 0) > INPUTS / 10, summary);
        assertTrue(verdicts.getOrDefault(Verdict.BAD_FIELD, 0) > 100, summary);
        assertTrue(verdicts.getOrDefault(Verdict.BAD_LENGTH, 0) > 100, summary);
        assertEquals(rejected, engine.counters().get(EngineCounter.INVALID_PACKETS), summary);
    }

    /** A frame the validator accepts but the engine refuses as invalid: forged DATA, oversized, own digest. */
    private static boolean refusedAfterValidation(byte[] frame) {
        int type = Bytes.getUnsignedByte(frame, HeaderFlyweight.TYPE_OFFSET);
        if (type == FrameType.DATA || type == PbcastFrameType.RETRANSMIT) {
            DataFlyweight d = new DataFlyweight().wrap(frame, 0);
            return type == FrameType.DATA && d.origin() != d.source() || d.payloadLength() > MAX_PAYLOAD;
        }
        return type == PbcastFrameType.DIGEST && Bytes.getInt(frame, HeaderFlyweight.SOURCE_OFFSET) == SELF;
    }

    private PbcastEngine engine() {
        PbcastConfig config = PbcastConfig.builder().ipmc(true).grb(true).local(true).bufferCapacity(256)
                .streamWindow(1024).maxPayload(MAX_PAYLOAD).build();
        PbcastEngine engine = new PbcastEngine(SELF, config, new SplittableRandom(SEED), new RecordingOutbox());
        for (int node = 0; node < 4; node++) {
            engine.onMembership(MembershipEvent.join(GROUP, node), 0);
        }
        return engine;
    }

    /** Checks {@code frame} at offset 0, at a random offset in a padded copy, and reads every accepted field. */
    private Verdict probe(SplittableRandom rnd, byte[] frame, int i) {
        try {
            Verdict exact = PbcastFrames.check(frame, 0, frame.length);
            int pad = rnd.nextInt(32);
            byte[] padded = new byte[frame.length + pad + rnd.nextInt(32)];
            fill(rnd, padded);
            System.arraycopy(frame, 0, padded, pad, frame.length);
            assertEquals(exact, PbcastFrames.check(padded, pad, frame.length), "offset " + pad);
            if (exact == Verdict.OK) {
                readAll(frame);
            }
            return exact;
        } catch (RuntimeException e) {
            return fail("seed=" + SEED + " input " + i + " " + HexFormat.of().formatHex(frame), e);
        }
    }

    private void readAll(byte[] frame) {
        int type = Bytes.getUnsignedByte(frame, HeaderFlyweight.TYPE_OFFSET);
        if (type == FrameType.DATA || type == PbcastFrameType.RETRANSMIT) {
            DataFlyweight d = new DataFlyweight().wrap(frame, 0);
            sink += d.origin() + d.group() + d.seqno();
            if (d.payloadLength() > 0) {
                sink += frame[d.payloadOffset() + d.payloadLength() - 1];
            }
        } else if (type == PbcastFrameType.DIGEST) {
            DigestFlyweight d = new DigestFlyweight().wrap(frame, 0);
            sink += d.group() + d.round();
            for (int e = 0; e < d.entryCount(); e++) {
                sink += d.entryOrigin(e) + d.entryLast(e) + d.entryFlags(e);
            }
        } else {
            SolicitFlyweight s = new SolicitFlyweight().wrap(frame, 0);
            sink += s.origin() + s.group() + s.seqno() + s.argument();
        }
    }

    private static byte[] validFrame(SplittableRandom rnd, int type) {
        int origin = rnd.nextInt(6) - 1;
        long seqno = rnd.nextInt(3) == 0 ? rnd.nextLong(Long.MAX_VALUE) : rnd.nextInt(2000);
        switch (type) {
            case FrameType.DATA:
                return TestFrames.data(origin, GROUP, seqno);
            case PbcastFrameType.RETRANSMIT:
                return TestFrames.retransmit(rnd.nextInt(4), origin, GROUP, seqno);
            case PbcastFrameType.DIGEST:
                Run[] runs = new Run[rnd.nextInt(DigestFlyweight.MAX_ENTRIES + 1)];
                for (int r = 0; r < runs.length; r++) {
                    int count = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : DigestFlyweight.MAX_RUN);
                    runs[r] = new Run(rnd.nextInt(6) - 1, rnd.nextInt(5000), count, rnd.nextBoolean());
                }
                return TestFrames.digest(rnd.nextInt(4), GROUP, rnd.nextInt(3), runs);
            default:
                int argument = type == PbcastFrameType.MCAST ? 0 : rnd.nextInt(6) - 1;
                return TestFrames.solicit(type, rnd.nextInt(4), origin, GROUP, seqno, argument);
        }
    }

    private static byte[] mutate(SplittableRandom rnd, byte[] frame) {
        byte[] f = frame;
        switch (rnd.nextInt(7)) {
            case 0:
                f[rnd.nextInt(f.length)] ^= (byte) (1 << rnd.nextInt(8));
                break;
            case 1:
                f = Arrays.copyOf(f, rnd.nextInt(f.length + 1));
                break;
            case 2:
                f = Arrays.copyOf(f, f.length + 1 + rnd.nextInt(40));
                Bytes.putShort(f, HeaderFlyweight.FRAME_LENGTH_OFFSET, rnd.nextBoolean() ? f.length : frame.length);
                break;
            case 3:
                if (f.length >= DigestFlyweight.ENTRIES_OFFSET) {
                    Bytes.putShort(f, DigestFlyweight.COUNT_OFFSET, rnd.nextInt(200));
                }
                break;
            case 4:
                f[HeaderFlyweight.TYPE_OFFSET] = (byte) TYPES[rnd.nextInt(TYPES.length)];
                break;
            case 5:
                if (f.length > DigestFlyweight.ENTRIES_OFFSET + DigestFlyweight.ENTRY_LENGTH) {
                    int at = DigestFlyweight.ENTRIES_OFFSET + rnd.nextInt(4) * 2 + 10;
                    Bytes.putShort(f, Math.min(at, f.length - 2), rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1 << 16));
                }
                break;
            default:
                if (f.length >= DataFlyweight.DATA_HEADER_LENGTH) {
                    Bytes.putLong(f, DataFlyweight.SEQNO_OFFSET, rnd.nextLong());
                }
                break;
        }
        return f;
    }

    private static byte[] randomFrame(SplittableRandom rnd) {
        byte[] frame = new byte[rnd.nextInt(1500)];
        fill(rnd, frame);
        if (frame.length >= HeaderFlyweight.HEADER_LENGTH) {
            Bytes.putShort(frame, HeaderFlyweight.MAGIC_OFFSET, HeaderFlyweight.MAGIC);
            frame[HeaderFlyweight.VERSION_OFFSET] = HeaderFlyweight.VERSION;
            frame[HeaderFlyweight.TYPE_OFFSET] = (byte) TYPES[rnd.nextInt(TYPES.length)];
            Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, frame.length);
        }
        return frame;
    }

    private static void fill(SplittableRandom rnd, byte[] b) {
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
    }
}
