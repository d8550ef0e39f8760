package io.ricochet.qsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.RecordingOutbox;
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
 * Fuzzes QSM's receive path ({@link QsmFrameValidator#check}, then the engine). Inputs are random byte arrays (half
 * with a plausible header) and valid DATA, QSM_REPAIR and QSM_TOKEN frames under one to three mutations (byte flips,
 * truncation, extension, overwritten counts, lengths and seqnos, changed types). Each input is checked at a random
 * offset inside random padding and again in an exact-size copy, so a read outside the frame throws; the verdict must
 * not change and must agree with a reference written from the documented layout. An accepted token is read field
 * by field. Every input is then fed to an engine that is a member of every group the inputs name, with a sender of
 * each: nothing may throw, and INVALID_PACKETS grows by one for each rejected input and for nothing else. The seed
 * is fixed ({@code -Dricochet.fuzz.seed=N} overrides it) and appears in every message.
 */
class QsmWireFuzzTest {
    private static final long SEED = Long.getLong("ricochet.fuzz.seed", 0x51534d5f46555aL);
    private static final int ITERATIONS = 60_000;
    private static final int MAX_PAD = 32;
    private static final int[] TYPES = {FrameType.DATA, FrameType.QSM_REPAIR, FrameType.QSM_TOKEN};
    private static final int GROUPS = 4;
    private static final int NODES = 4;

    private long sink;

    @Test
    void shouldNeverThrowAndRejectExactlyWhatTheReferenceRejects() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        QsmEngine engine = new QsmEngine(0, QsmConfig.builder().maxPayload(DataFlyweight.STANDARD_MAX_PAYLOAD)
                .build(), new RecordingOutbox());
        for (int g = 0; g < GROUPS; g++) {
            for (int n = 0; n < NODES; n++) {
                engine.onMembership(MembershipEvent.join(g, n), 0);
            }
        }
        Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
        int[] accepted = new int[256];
        long rejected = 0;
        for (int iter = 0; iter < ITERATIONS; iter++) {
            int type = TYPES[rnd.nextInt(TYPES.length)];
            byte[] frame = iter % 4 == 0 ? randomBytes(rnd) : validFrame(rnd, type);
            for (int m = iter % 4 == 0 ? 0 : 1 + rnd.nextInt(3); m > 0 && rnd.nextInt(4) > 0; m--) {
                frame = mutate(rnd, frame);
            }
            String where = "seed=" + SEED + " iter=" + iter + " frame=" + HexFormat.of().formatHex(frame);
            int pad = rnd.nextInt(MAX_PAD + 1);
            byte[] padded = new byte[pad + frame.length + rnd.nextInt(MAX_PAD + 1)];
            System.arraycopy(frame, 0, padded, pad, frame.length);
            Verdict v = QsmFrameValidator.check(padded, pad, frame.length);
            assertEquals(v, QsmFrameValidator.check(frame, 0, frame.length), where);
            assertEquals(reference(frame), v == Verdict.OK, where);
            verdicts.merge(v, 1, Integer::sum);
            if (v == Verdict.OK) {
                accepted[frame[HeaderFlyweight.TYPE_OFFSET] & 0xFF]++;
                readAll(frame);
            }
            if (v != Verdict.OK || refusedForItsMeaning(frame)) {
                rejected++;
            }
            engine.onPacket(padded, pad, frame.length, iter);
            engine.onTimer(iter);
            assertEquals(rejected, engine.counters().get(EngineCounter.INVALID_PACKETS), where);
        }
        String summary = "seed=" + SEED + " verdicts=" + verdicts;
        for (int type : TYPES) {
            assertTrue(accepted[type] > 500, FrameType.name(type) + " accepted " + accepted[type] + " " + summary);
        }
        assertTrue(verdicts.getOrDefault(Verdict.BAD_FIELD, 0) > 100, summary);
        assertTrue(verdicts.getOrDefault(Verdict.BAD_LENGTH, 0) > 100, summary);
        assertTrue(sink != 42, "the reads happened");
    }

    /**
     * A well-formed frame the engine (node 0, a member of groups 0..3 with nodes 0..3) still counts as invalid: DATA
     * whose origin is not its source, or a forward from a stranger to one of its groups.
     */
    private static boolean refusedForItsMeaning(byte[] frame) {
        DataFlyweight d = new DataFlyweight().wrap(frame, 0);
        if (d.source() == 0 || d.type() == FrameType.QSM_TOKEN) {
            return false; // its own frame looped back (a duplicate), or a token (refused or taken, never invalid)
        }
        if (d.type() == FrameType.DATA) {
            return d.origin() != d.source();
        }
        boolean ourGroup = d.group() >= 0 && d.group() < GROUPS;
        return d.origin() != 0 && ourGroup && (d.source() < 0 || d.source() >= NODES);
    }

    private static byte[] randomBytes(SplittableRandom rnd) {
        byte[] b = new byte[rnd.nextInt(200)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
        if (b.length >= HeaderFlyweight.HEADER_LENGTH && rnd.nextBoolean()) {
            new HeaderFlyweight().wrap(b, 0).writeHeader(TYPES[rnd.nextInt(TYPES.length)], rnd.nextInt(NODES))
                    .frameLength(b.length);
        }
        return b;
    }

    private static byte[] validFrame(SplittableRandom rnd, int type) {
        int source = 1 + rnd.nextInt(NODES - 1);
        int group = rnd.nextInt(GROUPS);
        if (type != FrameType.QSM_TOKEN) {
            byte[] payload = new byte[rnd.nextInt(64)];
            byte[] frame = new byte[DataFlyweight.dataFrameLength(payload.length)];
            int origin = type == FrameType.DATA ? source : rnd.nextInt(NODES);
            new DataFlyweight().wrap(frame, 0).write(type, source, origin, group, rnd.nextLong(50), payload, 0,
                    payload.length);
            return frame;
        }
        int senders = rnd.nextInt(4);
        int records = rnd.nextInt(6);
        byte[] frame = new byte[QsmTokenFlyweight.lengthOf(senders, records)];
        QsmTokenFlyweight f = new QsmTokenFlyweight().wrap(frame, 0);
        f.writeHead(source, group, rnd.nextInt(2), rnd.nextLong(10), rnd.nextInt(NODES), rnd.nextInt(100),
                rnd.nextInt(3), senders, records);
        for (int i = 0; i < senders; i++) {
            long highest = rnd.nextLong(-1, 50);
            long stable = rnd.nextLong(highest + 2);
            f.putSender(i, i, rnd.nextInt(4), highest, stable, rnd.nextBoolean() ? Long.MAX_VALUE : stable);
        }
        for (int i = 0; i < records; i++) {
            f.putRecord(i, rnd.nextInt(NODES), rnd.nextLong(50), rnd.nextInt(NODES), rnd.nextInt(-2, NODES),
                    rnd.nextInt(3));
        }
        return frame;
    }

    private static byte[] mutate(SplittableRandom rnd, byte[] frame) {
        byte[] f = frame.clone();
        switch (rnd.nextInt(6)) {
            case 0:
                if (f.length > 0) {
                    f[rnd.nextInt(f.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
                return f;
            case 1:
                return Arrays.copyOf(f, rnd.nextInt(f.length + 1));
            case 2:
                return Arrays.copyOf(f, f.length + 1 + rnd.nextInt(40));
            case 3:
                if (f.length >= QsmTokenFlyweight.ENTRIES_OFFSET && rnd.nextInt(3) == 0) {
                    f[QsmTokenFlyweight.LEVEL_OFFSET] = (byte) rnd.nextInt(4);
                } else if (f.length >= QsmTokenFlyweight.ENTRIES_OFFSET) {
                    Bytes.putShort(f, rnd.nextBoolean() ? QsmTokenFlyweight.SENDER_COUNT_OFFSET
                            : QsmTokenFlyweight.RECORD_COUNT_OFFSET, rnd.nextInt(60));
                }
                return f;
            case 4:
                if (f.length >= DataFlyweight.DATA_HEADER_LENGTH) {
                    Bytes.putLong(f, rnd.nextInt(HeaderFlyweight.HEADER_LENGTH, f.length - 7), -1 - rnd.nextLong(5));
                }
                return f;
            default:
                if (f.length > HeaderFlyweight.TYPE_OFFSET) {
                    f[HeaderFlyweight.TYPE_OFFSET] = (byte) TYPES[rnd.nextInt(TYPES.length)];
                }
                return f;
        }
    }

    /** The layout rules of docs/wire-format.md, written independently of the validator. */
    private static boolean reference(byte[] f) {
        if (f.length < 12 || (((f[0] & 0xFF) << 8) | (f[1] & 0xFF)) != 0x5243 || f[2] != 1
                || (((f[4] & 0xFF) << 8) | (f[5] & 0xFF)) != f.length) {
            return false;
        }
        int type = f[3] & 0xFF;
        if (type == FrameType.DATA || type == FrameType.QSM_REPAIR) {
            return f.length >= 28 && Bytes.getLong(f, 20) >= 0;
        }
        if (type != FrameType.QSM_TOKEN || f.length < 38 || f.length > 1472) {
            return false;
        }
        int senders = Bytes.getUnsignedShort(f, 34);
        int records = Bytes.getUnsignedShort(f, 36);
        if (senders > 16 || records > 46 || (f[33] & 0xFF) > 1 || f.length != 38 + 29 * senders + 21 * records) {
            return false;
        }
        if (Bytes.getLong(f, 16) < 0 || Bytes.getInt(f, 28) < 0) {
            return false;
        }
        for (int i = 0; i < senders; i++) {
            int e = 38 + 29 * i;
            if ((f[e + 4] & 0xFF) > 3 || Bytes.getLong(f, e + 5) < -1 || Bytes.getLong(f, e + 13) < 0
                    || Bytes.getLong(f, e + 21) < 0) {
                return false;
            }
        }
        for (int i = 0; i < records; i++) {
            if (Bytes.getLong(f, 38 + 29 * senders + 21 * i + 4) < 0) {
                return false;
            }
        }
        return true;
    }

    private void readAll(byte[] frame) {
        if ((frame[HeaderFlyweight.TYPE_OFFSET] & 0xFF) != FrameType.QSM_TOKEN) {
            DataFlyweight d = new DataFlyweight().wrap(frame, 0);
            sink += d.origin() + d.group() + d.seqno() + d.payloadLength();
            return;
        }
        QsmTokenFlyweight t = new QsmTokenFlyweight().wrap(frame, 0);
        sink += t.group() + t.epoch() + t.generator() + t.round() + t.idleRounds() + t.level();
        for (int i = 0; i < t.senderCount(); i++) {
            sink += t.senderOrigin(i) + t.senderFlags(i) + t.senderHighest(i) + t.senderStable(i) + t.senderAcc(i);
        }
        for (int i = 0; i < t.recordCount(); i++) {
            sink += t.recordOrigin(i) + t.recordSeqno(i) + t.recordMissing(i) + t.recordHolder(i) + t.recordRounds(i);
        }
    }
}
