package io.ricochet.srm;

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
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes SRM's receive path. Inputs are random byte arrays (half with a plausible header) and valid DATA, REQUEST,
 * REPAIR and SESSION frames under one to three random mutations. Each input is validated at a random offset inside
 * random padding, again in a copy that ends where the frame ends and in an exact-size copy, so any read outside the
 * frame throws; the verdict must be the same each time and agree with an independent reference written from the
 * documented layouts. An accepted frame is read field by field through its flyweight. Every input is then fed to an
 * engine (a member of every group the inputs name): nothing may throw, and INVALID_PACKETS must grow by one for
 * each rejected input and for nothing else. The seed is fixed ({@code -Dricochet.fuzz.seed=N} overrides it) and
 * appears in every message.
 */
class SrmWireFuzzTest {
    private static final long SEED = Long.getLong("ricochet.fuzz.seed", 0x53524d5f46555aL);
    private static final int ITERATIONS = 60_000;
    private static final int MAX_PAD = 32;
    private static final int[] TYPES = {
        FrameType.DATA, SrmFrameType.REQUEST, SrmFrameType.REPAIR, SrmFrameType.SESSION,
    };
    /** Groups the generated frames use; the fuzzed engine is a member of all of them. */
    private static final int GROUPS = 4;

    private long sink;

    @Test
    void shouldNeverThrowAndRejectExactlyWhatTheReferenceRejects() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        SrmEngine engine = memberOfEveryGroup();
        Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
        int[] acceptedByType = new int[256];
        for (int iter = 0; iter < ITERATIONS; iter++) {
            byte[] frame;
            StringBuilder kind = new StringBuilder();
            if (iter % 4 == 0) {
                frame = randomBytes(rnd, kind);
            } else {
                int type = TYPES[rnd.nextInt(TYPES.length)];
                kind.append(SrmFrameType.name(type));
                frame = validFrame(rnd, type);
                for (int m = 1 + rnd.nextInt(3); m > 0; m--) {
                    frame = mutate(rnd, frame, kind);
                }
            }
            Verdict v = probe(rnd, frame, iter, kind.toString());
            verdicts.merge(v, 1, Integer::sum);
            if (v == Verdict.OK) {
                acceptedByType[frame[HeaderFlyweight.TYPE_OFFSET] & 0xFF]++;
            }
            feed(engine, frame, iter, kind.toString(), v);
        }
        String summary = "seed=" + SEED + " verdicts=" + verdicts;
        for (int type : TYPES) {
            assertTrue(acceptedByType[type] > 1000, SrmFrameType.name(type) + " accepted " + acceptedByType[type]
                    + " times: " + summary);
        }
        for (Verdict v : Verdict.values()) {
            assertTrue(verdicts.getOrDefault(v, 0) > 0, "verdict " + v + " never produced: " + summary);
        }
    }

    @Test
    void shouldAcceptEveryUnmutatedGeneratedFrame() {
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        for (int iter = 0; iter < 4_000; iter++) {
            byte[] frame = validFrame(rnd, TYPES[iter % TYPES.length]);
            int at = iter;
            assertEquals(Verdict.OK, probe(rnd, frame, iter, "unmutated"), () -> context(at, "unmutated", frame));
        }
    }

    // ---- the engine side ----

    private static SrmEngine memberOfEveryGroup() {
        SrmEngine engine = new SrmEngine(1, SrmConfig.builder().maxPayload(DataFlyweight.STANDARD_MAX_PAYLOAD).build(),
                new SplittableRandom(SEED), new RecordingOutbox());
        for (int g = 0; g < GROUPS; g++) {
            engine.onMembership(MembershipEvent.join(g, 1), 0);
            for (int node = 2; node <= 5; node++) {
                engine.onMembership(MembershipEvent.join(g, node), 0);
            }
        }
        return engine;
    }

    private void feed(SrmEngine engine, byte[] frame, int iter, String kind, Verdict v) {
        long before = engine.counters().get(EngineCounter.INVALID_PACKETS);
        try {
            engine.onPacket(frame, 0, frame.length, iter * 100_000L);
            engine.onTimer(iter * 100_000L + 50_000);
        } catch (RuntimeException e) {
            throw new AssertionError("engine threw: " + context(iter, kind, frame), e);
        }
        long added = engine.counters().get(EngineCounter.INVALID_PACKETS) - before;
        // Past the validator, only DATA relayed by another node than its origin is invalid (own frames are dupes).
        boolean relayedData = v == Verdict.OK && (frame[HeaderFlyweight.TYPE_OFFSET] & 0xFF) == FrameType.DATA
                && Bytes.getInt(frame, HeaderFlyweight.SOURCE_OFFSET) != 1
                && Bytes.getInt(frame, DataFlyweight.ORIGIN_OFFSET)
                        != Bytes.getInt(frame, HeaderFlyweight.SOURCE_OFFSET);
        assertEquals(v != Verdict.OK || relayedData ? 1 : 0, added,
                () -> "INVALID_PACKETS for verdict " + v + ": " + context(iter, kind, frame));
    }

    // ---- the probe ----

    private Verdict probe(SplittableRandom rnd, byte[] frame, int iter, String kind) {
        int before = rnd.nextInt(MAX_PAD + 1);
        byte[] padded = new byte[before + frame.length + rnd.nextInt(MAX_PAD + 1)];
        fill(rnd, padded, 0, padded.length);
        System.arraycopy(frame, 0, padded, before, frame.length);
        Supplier<String> where = () -> context(iter, kind, frame) + " offset=" + before;
        Verdict v = checkQuietly(padded, before, frame.length, where);
        byte[] endsAtEnd = Arrays.copyOf(padded, before + frame.length);
        assertEquals(v, checkQuietly(endsAtEnd, before, frame.length, where), where);
        assertEquals(v, checkQuietly(frame, 0, frame.length, where), where);
        assertEquals(referenceValid(frame), v == Verdict.OK, () -> "disagrees with reference: " + where.get());
        if (v == Verdict.OK) {
            readEverything(endsAtEnd, before, frame.length);
        }
        return v;
    }

    private static Verdict checkQuietly(byte[] buffer, int offset, int length, Supplier<String> where) {
        try {
            return SrmFrameValidator.check(buffer, offset, length);
        } catch (RuntimeException e) {
            throw new AssertionError("SrmFrameValidator.check threw: " + where.get(), e);
        }
    }

    private void readEverything(byte[] buf, int off, int len) {
        HeaderFlyweight header = new HeaderFlyweight().wrap(buf, off);
        sink += header.flags() + header.source() + header.frameLength();
        switch (header.type()) {
            case FrameType.DATA: {
                DataFlyweight d = new DataFlyweight().wrap(buf, off);
                sink += d.origin() + d.group() + d.seqno() + xor(buf, d.payloadOffset(), d.payloadLength());
                assertEquals(off + len, d.payloadOffset() + d.payloadLength());
                break;
            }
            case SrmFrameType.REQUEST: {
                SrmRequestFlyweight r = new SrmRequestFlyweight().wrap(buf, off);
                sink += r.origin() + r.group() + r.seqno();
                break;
            }
            case SrmFrameType.REPAIR: {
                SrmRepairFlyweight r = new SrmRepairFlyweight().wrap(buf, off);
                sink += r.origin() + r.group() + r.seqno() + xor(buf, r.payloadOffset(), r.payloadLength());
                assertEquals(off + len, r.payloadOffset() + r.payloadLength());
                break;
            }
            case SrmFrameType.SESSION: {
                SrmSessionFlyweight s = new SrmSessionFlyweight().wrap(buf, off);
                sink += s.group() + s.highestSent();
                for (int i = 0; i < s.count(); i++) {
                    sink += s.entrySender(i) + s.entrySeqno(i);
                }
                break;
            }
            default:
                throw new AssertionError("accepted type " + header.type());
        }
    }

    private static long xor(byte[] b, int from, int length) {
        long x = 0;
        for (int i = from; i < from + length; i++) {
            x ^= b[i];
        }
        return x;
    }

    /** The documented layouts, read with a ByteBuffer: an independent statement of what is valid. */
    private static boolean referenceValid(byte[] f) {
        if (f.length < 12) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(f);
        if ((b.getShort(0) & 0xFFFF) != 0x5243 || f[2] != 1 || (b.getShort(4) & 0xFFFF) != f.length
                || f.length > 1472) {
            return false;
        }
        switch (f[3] & 0xFF) {
            case 1:
            case 17:
                return f.length >= 28 && b.getLong(20) >= 0;
            case 16:
                return f.length == 28 && b.getLong(20) >= 0;
            case 18: {
                if (f.length < 28) {
                    return false;
                }
                int count = b.getShort(24) & 0xFFFF;
                if (count > 120 || f.length != 28 + 12 * count || b.getLong(16) < -1) {
                    return false;
                }
                for (int i = 0; i < count; i++) {
                    if (b.getLong(28 + 12 * i + 4) < 0) {
                        return false;
                    }
                }
                return true;
            }
            default:
                return false;
        }
    }

    // ---- generators ----

    private static byte[] randomBytes(SplittableRandom rnd, StringBuilder kind) {
        byte[] frame = new byte[rnd.nextInt(1600)];
        fill(rnd, frame, 0, frame.length);
        kind.append("random");
        if (rnd.nextBoolean() && frame.length >= 12) {
            kind.append("-with-header");
            Bytes.putShort(frame, 0, HeaderFlyweight.MAGIC);
            frame[2] = (byte) HeaderFlyweight.VERSION;
            frame[3] = (byte) (rnd.nextBoolean() ? TYPES[rnd.nextInt(TYPES.length)] : rnd.nextInt(50));
            Bytes.putShort(frame, 4, frame.length);
        }
        return frame;
    }

    private static byte[] validFrame(SplittableRandom rnd, int type) {
        int source = 2 + rnd.nextInt(4);
        int group = rnd.nextInt(GROUPS);
        long seqno = rnd.nextInt(4) == 0 ? rnd.nextLong() & Long.MAX_VALUE : rnd.nextInt(200);
        switch (type) {
            case FrameType.DATA: {
                byte[] p = new byte[rnd.nextInt(DataFlyweight.STANDARD_MAX_PAYLOAD + 1)];
                byte[] frame = new byte[DataFlyweight.DATA_HEADER_LENGTH + p.length];
                new DataFlyweight().wrap(frame, 0).write(FrameType.DATA, source, source, group, seqno, p, 0, p.length);
                return frame;
            }
            case SrmFrameType.REQUEST:
                return SrmFrames.request(source, 1 + rnd.nextInt(5), group, seqno);
            case SrmFrameType.REPAIR: {
                byte[] p = new byte[rnd.nextInt(SrmRepairFlyweight.MAX_PAYLOAD + 1)];
                fill(rnd, p, 0, p.length);
                byte[] frame = new byte[SrmRepairFlyweight.REPAIR_HEADER_LENGTH + p.length];
                new SrmRepairFlyweight().wrap(frame, 0).write(source, 1 + rnd.nextInt(5), group, seqno, p, 0,
                        p.length);
                return frame;
            }
            default: {
                long[] heard = new long[2 * rnd.nextInt(SrmSessionFlyweight.MAX_ENTRIES + 1)];
                for (int i = 0; i < heard.length; i += 2) {
                    heard[i] = 1 + rnd.nextInt(5);
                    heard[i + 1] = rnd.nextInt(300);
                }
                return SrmFrames.session(source, group, rnd.nextInt(300) - 1, heard);
            }
        }
    }

    private static byte[] mutate(SplittableRandom rnd, byte[] frame, StringBuilder kind) {
        int len = frame.length;
        int op = rnd.nextInt(10);
        kind.append('/').append(op);
        switch (op) {
            case 0: // flip a few bytes anywhere
                for (int n = 1 + rnd.nextInt(4); n > 0 && len > 0; n--) {
                    frame[rnd.nextInt(len)] ^= (byte) (1 + rnd.nextInt(255));
                }
                return frame;
            case 1: // truncate, length field left alone
                return Arrays.copyOf(frame, rnd.nextInt(len + 1));
            case 2: // truncate and fix the length field
                return withLength(Arrays.copyOf(frame, rnd.nextInt(len + 1)));
            case 3: // extend and fix the length field (may pass 1472, the most SRM takes)
                return withLength(extend(rnd, frame, 1 + rnd.nextInt(200)));
            case 4: // length field off by a little
                if (len >= 6) {
                    Bytes.putShort(frame, 4, len + rnd.nextInt(9) - 4);
                }
                return frame;
            case 5: // session count field: random or off by one
                if (len >= 26) {
                    int old = Bytes.getUnsignedShort(frame, SrmSessionFlyweight.COUNT_OFFSET);
                    Bytes.putShort(frame, SrmSessionFlyweight.COUNT_OFFSET,
                            rnd.nextBoolean() ? rnd.nextInt(1 << 16) : old + (rnd.nextBoolean() ? 1 : -1));
                }
                return frame;
            case 6: // negative seqno where any type keeps one (20: data/request/repair; 16: session sent)
                if (len >= 28) {
                    frame[rnd.nextBoolean() ? 20 : 16] |= (byte) 0x80;
                }
                return frame;
            case 7: // negative seqno in a random session entry
                if (len > 28 + 12) {
                    frame[28 + 12 * rnd.nextInt((len - 28) / 12) + 4] |= (byte) 0x80;
                }
                return frame;
            case 8: // another type: same bytes read with another layout
                if (len > 3) {
                    frame[3] = (byte) (rnd.nextInt(3) == 0 ? rnd.nextInt(32) : TYPES[rnd.nextInt(TYPES.length)]);
                }
                return frame;
            default: // session highest-sent set to -1 or -2, or payload bytes flipped: usually still valid
                if (len >= 24 && rnd.nextBoolean()) {
                    Bytes.putLong(frame, SrmSessionFlyweight.HIGHEST_SENT_OFFSET, -1 - rnd.nextInt(2));
                } else if (len > 28) {
                    frame[28 + rnd.nextInt(len - 28)] ^= (byte) rnd.nextInt(256);
                }
                return frame;
        }
    }

    private static byte[] withLength(byte[] frame) {
        if (frame.length >= 6) {
            Bytes.putShort(frame, 4, frame.length);
        }
        return frame;
    }

    private static byte[] extend(SplittableRandom rnd, byte[] frame, int extra) {
        byte[] grown = Arrays.copyOf(frame, frame.length + extra);
        fill(rnd, grown, frame.length, grown.length);
        return grown;
    }

    private static void fill(SplittableRandom rnd, byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
    }

    private static String context(int iter, String kind, byte[] frame) {
        return "seed=" + SEED + " iteration=" + iter + " input=" + kind + " length=" + frame.length + " bytes="
                + HexFormat.of().formatHex(frame);
    }
}
