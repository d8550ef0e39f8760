package io.ricochet.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.FrameValidator.Verdict;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the receive path of the wire format: {@link FrameValidator#check} followed, only when it says OK, by a
 * read of every field through the matching flyweight ({@link DataFlyweight}, {@link PacketRefFlyweight},
 * {@link RepairFlyweight}: every entry and the whole XOR payload region, {@link HeartbeatFlyweight}). Inputs are
 * random byte arrays (some with a plausible header stamped on, so the per-type rules are reached) and mutations of
 * valid frames of every type (byte flips, truncation, extension, overwritten length/count/payload-length fields,
 * duplicated entries, changed types, negative sequence numbers).
 *
 * <p>Each input is checked at a random offset inside a padded array. The same bytes are then checked again in a
 * copy that ends exactly where the frame ends, and in an exact-size copy at offset 0, so any read outside
 * {@code [offset, offset + length)} by the validator or the flyweights throws instead of going unnoticed; the
 * verdict must not change. The validator's OK/not-OK answer is also compared with an independent reference
 * written from the documented layout. Nothing may throw. The seed is fixed (override with
 * {@code -Dricochet.fuzz.seed=N}) and appears in every failure message.
 */
class WireFuzzTest {
    private static final long SEED = Long.getLong("ricochet.fuzz.seed", 0x5249434f43484554L);
    private static final int RANDOM_ARRAYS = 100_000;
    private static final int MUTATED_FRAMES = 120_000;
    private static final int MAX_RANDOM_LENGTH = 1600;
    private static final int MAX_PAD = 48;
    private static final int[] TYPES = {
        FrameType.DATA, FrameType.REPAIR, FrameType.NAK, FrameType.RETRANSMIT, FrameType.GONE, FrameType.SESSION,
        FrameType.HEARTBEAT, FrameType.HEARTBEAT_ACK, FrameType.TAIL, FrameType.STABLE, FrameType.FOUNTAIN,
        FrameType.JOIN_PROBE, FrameType.JOIN_POINT,
    };

    /** Scratch for XOR-reading payload regions; larger than any frame a 16-bit length can describe. */
    private final byte[] scratch = new byte[1 << 16];
    /** Sink for field values so the reads are real work. */
    private long sink;

    @Test
    void shouldNeverThrowOrReadOutOfBoundsOnRandomBytes() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
        for (int iter = 0; iter < RANDOM_ARRAYS; iter++) {
            int length = rnd.nextInt(MAX_RANDOM_LENGTH + 1);
            byte[] frame = new byte[length];
            fillRandom(rnd, frame, 0, length);
            String kind = "random";
            if (rnd.nextBoolean() && length >= HeaderFlyweight.HEADER_LENGTH) {
                // Half the arrays get a plausible header so the per-type rules see random bodies.
                kind = "random-with-header";
                stampHeader(rnd, frame);
            }
            Verdict v = probe(rnd, frame, iter, kind);
            verdicts.merge(v, 1, Integer::sum);
        }
        String summary = "seed=" + SEED + " verdicts=" + verdicts;
        assertTrue(verdicts.getOrDefault(Verdict.BAD_MAGIC, 0) > RANDOM_ARRAYS / 4, summary);
        assertTrue(verdicts.getOrDefault(Verdict.OK, 0) > 100, summary);
    }

    @Test
    void shouldNeverThrowOrReadOutOfBoundsOnMutatedFrames() {
        SplittableRandom rnd = new SplittableRandom(SEED ^ 0x9E3779B97F4A7C15L);
        Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
        int[] acceptedByType = new int[256];
        for (int iter = 0; iter < MUTATED_FRAMES; iter++) {
            int type = TYPES[iter % TYPES.length];
            byte[] frame = validFrame(rnd, type);
            StringBuilder kind = new StringBuilder(FrameType.name(type));
            int mutations = 1 + rnd.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                frame = mutate(rnd, frame, kind);
            }
            Verdict v = probe(rnd, frame, iter, kind.toString());
            verdicts.merge(v, 1, Integer::sum);
            if (v == Verdict.OK) {
                acceptedByType[frame[HeaderFlyweight.TYPE_OFFSET] & 0xFF]++;
            }
        }
        int accepted = verdicts.getOrDefault(Verdict.OK, 0);
        String summary = "seed=" + SEED + " verdicts=" + verdicts;
        assertTrue(accepted > 10_000, "too few mutated frames accepted to exercise the read path: " + summary);
        assertTrue(MUTATED_FRAMES - accepted > 10_000, "too few mutated frames rejected: " + summary);
        for (int type : TYPES) {
            assertTrue(acceptedByType[type] > 1000,
                    FrameType.name(type) + " accepted only " + acceptedByType[type] + " times: " + summary);
        }
        for (Verdict v : Verdict.values()) {
            assertTrue(verdicts.getOrDefault(v, 0) > 0, "verdict " + v + " never produced: " + summary);
        }
    }

    @Test
    void shouldAcceptEveryUnmutatedGeneratedFrame() {
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        for (int iter = 0; iter < 5_000; iter++) {
            byte[] frame = validFrame(rnd, TYPES[iter % TYPES.length]);
            Verdict v = probe(rnd, frame, iter, "unmutated");
            int at = iter;
            assertEquals(Verdict.OK, v, () -> context(at, "unmutated", frame));
        }
    }

    // ---- the probe: validate in three placements, then read everything if OK ----

    private Verdict probe(SplittableRandom rnd, byte[] frame, int iter, String kind) {
        int length = frame.length;
        int before = rnd.nextInt(MAX_PAD + 1);
        int after = rnd.nextInt(MAX_PAD + 1);
        byte[] padded = new byte[before + length + after];
        fillRandom(rnd, padded, 0, before);
        System.arraycopy(frame, 0, padded, before, length);
        fillRandom(rnd, padded, before + length, padded.length);
        Supplier<String> where = () -> context(iter, kind, frame) + " offset=" + before;

        Verdict inPadded = checkQuietly(padded, before, length, where);
        // The frame ends exactly at the end of this copy: a read past `length` would throw.
        byte[] endsAtEnd = Arrays.copyOfRange(padded, 0, before + length);
        assertEquals(inPadded, checkQuietly(endsAtEnd, before, length, where), where);
        // The frame starts at index 0 of an exact-size array: a read before `offset` would throw too.
        assertEquals(inPadded, checkQuietly(frame, 0, length, where), where);
        assertEquals(referenceValid(frame), inPadded == Verdict.OK, () -> "disagrees with reference: " + where.get());

        if (inPadded == Verdict.OK) {
            try {
                readEverything(endsAtEnd, before, length);
                readEverything(frame, 0, length);
            } catch (RuntimeException e) {
                throw new AssertionError("flyweight read of an accepted frame threw: " + where.get(), e);
            }
        }
        return inPadded;
    }

    private static Verdict checkQuietly(byte[] buffer, int offset, int length, Supplier<String> where) {
        try {
            return FrameValidator.check(buffer, offset, length);
        } catch (RuntimeException e) {
            throw new AssertionError("FrameValidator.check threw: " + where.get(), e);
        }
    }

    /** Reads every field of an accepted frame through its flyweight and checks the invariants OK promises. */
    private void readEverything(byte[] buf, int off, int len) {
        HeaderFlyweight header = new HeaderFlyweight().wrap(buf, off);
        require(header.magic() == HeaderFlyweight.MAGIC, "magic");
        require(header.version() == HeaderFlyweight.VERSION, "version");
        require(header.frameLength() == len, "frame length");
        sink += header.flags() + header.source();
        int type = header.type();
        switch (type) {
            case FrameType.DATA:
            case FrameType.RETRANSMIT: {
                DataFlyweight d = new DataFlyweight().wrap(buf, off);
                sink += d.origin() + d.group();
                require(d.seqno() >= 0, "data seqno");
                int payloadLength = d.payloadLength();
                require(payloadLength >= 0 && payloadLength <= DataFlyweight.MAX_PAYLOAD, "data payload length");
                require(d.payloadOffset() + payloadLength == off + len, "data payload end");
                readRegion(buf, d.payloadOffset(), payloadLength);
                break;
            }
            case FrameType.NAK:
            case FrameType.GONE:
            case FrameType.SESSION:
            case FrameType.TAIL:
            case FrameType.JOIN_PROBE:
            case FrameType.JOIN_POINT: {
                PacketRefFlyweight r = new PacketRefFlyweight().wrap(buf, off);
                require(PacketRefFlyweight.validLength(r.type(), len), "ref length");
                sink += r.origin() + r.group();
                require(r.seqno() >= 0, "ref seqno");
                break;
            }
            case FrameType.STABLE: {
                StreamListFlyweight st = new StreamListFlyweight().wrap(buf, off);
                int count = st.count();
                require((st.flags() & ~StreamListFlyweight.PROGRESS) == 0, "stable flags");
                require(count >= 1 && count <= StreamListFlyweight.maxEntries(st.flags()), "stable count");
                require(StreamListFlyweight.lengthOf(count, st.flags()) == len, "stable length");
                sink += st.origin();
                for (int i = 0; i < count; i++) {
                    sink += st.group(i);
                    require(st.seqno(i) >= 0, "stable seqno");
                    require(st.progress(i) >= st.seqno(i), "stable progress");
                }
                break;
            }
            case FrameType.REPAIR: {
                RepairFlyweight r = new RepairFlyweight().wrap(buf, off);
                int count = r.count();
                int payloadLength = r.payloadLength();
                require(count >= 1 && count <= RepairFlyweight.MAX_ENTRIES, "repair count");
                int longest = 0;
                for (int i = 0; i < count; i++) {
                    sink += r.entryOrigin(i) + r.entryGroup(i);
                    require(r.entrySeqno(i) >= 0, "entry seqno");
                    int entryLength = r.entryLength(i);
                    require(entryLength <= payloadLength, "entry length");
                    longest = Math.max(longest, entryLength);
                    readRegion(buf, r.entrySealOffset(i), r.sealLength());
                    // What recovery does: XOR the first entryLength bytes of the repair payload.
                    Bytes.xorInto(scratch, 0, buf, r.payloadOffset(), entryLength);
                }
                require(longest == payloadLength, "longest entry");
                require(r.payloadOffset() + payloadLength == off + len, "repair payload end");
                readRegion(buf, r.payloadOffset(), payloadLength);
                break;
            }
            case FrameType.FOUNTAIN: {
                FountainFlyweight f = new FountainFlyweight().wrap(buf, off);
                int count = f.count();
                int size = f.symbolSize();
                require(count >= 1 && count <= FountainFlyweight.MAX_PACKETS, "fountain count");
                require(f.first() >= 0 && f.first() + (count - 1) >= f.first(), "fountain range");
                int longest = 0;
                for (int i = 0; i < count; i++) {
                    require(f.length(i) <= size, "fountain packet length");
                    longest = Math.max(longest, f.length(i));
                }
                require(Math.max(1, longest) == size, "fountain symbol size");
                require(f.symbolOffset() + size == off + len, "fountain symbol end");
                sink += f.group() + f.seed() + f.symbolId();
                readRegion(buf, f.symbolOffset(), size);
                break;
            }
            case FrameType.HEARTBEAT:
            case FrameType.HEARTBEAT_ACK: {
                HeartbeatFlyweight h = new HeartbeatFlyweight().wrap(buf, off);
                require(len == HeartbeatFlyweight.LENGTH, "heartbeat length");
                require(h.sequence() >= 0, "heartbeat sequence");
                sink += h.sendTimeNs();
                break;
            }
            default:
                throw new AssertionError("accepted unknown type " + type);
        }
    }

    private void readRegion(byte[] buf, int from, int length) {
        Bytes.xorInto(scratch, 0, buf, from, length);
        for (int i = from; i < from + length; i++) {
            sink += buf[i];
        }
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("accepted frame breaks invariant: " + what);
        }
    }

    // ---- an independent reference for the accept/reject decision, written from the documented layout ----

    private static boolean referenceValid(byte[] f) {
        int n = f.length;
        if (n < 12 || u8(f, 0) != 0x52 || u8(f, 1) != 0x43 || u8(f, 2) != 1) {
            return false;
        }
        if (u16(f, 4) != n || n > 65_475) {
            return false;
        }
        switch (u8(f, 3)) {
            case 1: // DATA
            case 4: // RETRANSMIT
                return n >= 28 && f[20] >= 0;
            case 3: // NAK: padded to at least 496
                return n >= 496 && f[20] >= 0;
            case 5: // GONE
            case 6: // SESSION
                return n == 28 && f[20] >= 0;
            case 9: // TAIL: the id and the failed sender's incarnation (any 64 bits)
            case 12: // JOIN_PROBE: the id and a nonce (any 64 bits)
            case 13: // JOIN_POINT: the id (the first seqno) and the probe's nonce
                return n == 36 && f[20] >= 0;
            case 10: { // STABLE: flags 0 (20 + 12 x count, count <= 121) or 1 (20 + 20 x count, count <= 72, progress
                       // >= seqno), count >= 1, every seqno >= 0
                if (n < 20) {
                    return false;
                }
                int count = u16(f, 16);
                int flags = u16(f, 18);
                int entry = flags == 0 ? 12 : 20;
                if (flags > 1 || count < 1 || count > (flags == 0 ? 121 : 72) || n != 20 + entry * count) {
                    return false;
                }
                for (int i = 0; i < count; i++) {
                    int e = 20 + entry * i;
                    if (f[e + 4] < 0 || (flags == 1 && new java.math.BigInteger(Arrays.copyOfRange(f, e + 12, e + 20))
                            .compareTo(new java.math.BigInteger(Arrays.copyOfRange(f, e + 4, e + 12))) < 0)) {
                        return false;
                    }
                }
                return true;
            }
            case 7: // HEARTBEAT
            case 8: // HEARTBEAT_ACK
                return n == 28 && f[12] >= 0;
            case 11: { // FOUNTAIN: 44 + 2 x count + size, 1 <= count <= 256, first >= 0, lengths <= size = longest
                if (n < 44) {
                    return false;
                }
                long first = java.nio.ByteBuffer.wrap(f, 16, 8).getLong();
                int count = u16(f, 24);
                int size = u16(f, 26);
                if (count < 1 || count > 256 || size < 1 || first < 0 || first + count - 1 < first
                        || n != 44 + 2 * count + size) {
                    return false;
                }
                int longest = 0;
                for (int i = 0; i < count; i++) {
                    longest = Math.max(longest, u16(f, 44 + 2 * i));
                }
                return longest <= size && Math.max(1, longest) == size;
            }
            case 2: { // REPAIR
                if (n < 16) {
                    return false;
                }
                int count = u8(f, 12);
                int seal = u8(f, 13);
                int payloadLength = u16(f, 14);
                if (count < 1 || count > 32 || seal > 32 || 16 + (20 + seal) * count + payloadLength != n) {
                    return false;
                }
                int longest = 0;
                for (int i = 0; i < count; i++) {
                    int e = 16 + (20 + seal) * i;
                    if (f[e + 8] < 0) {
                        return false;
                    }
                    longest = Math.max(longest, u16(f, e + 16));
                }
                return longest == payloadLength;
            }
            default:
                return false;
        }
    }

    private static int u8(byte[] b, int i) {
        return b[i] & 0xFF;
    }

    private static int u16(byte[] b, int i) {
        return (u8(b, i) << 8) | u8(b, i + 1);
    }

    // ---- generators ----

    /** A valid frame of {@code type} with random ids, sequence numbers and payload, in an exact-size array. */
    private static byte[] validFrame(SplittableRandom rnd, int type) {
        switch (type) {
            case FrameType.DATA:
            case FrameType.RETRANSMIT: {
                int payloadLength = payloadLength(rnd, DataFlyweight.STANDARD_MAX_PAYLOAD);
                byte[] payload = new byte[payloadLength];
                fillRandom(rnd, payload, 0, payloadLength);
                byte[] frame = new byte[DataFlyweight.DATA_HEADER_LENGTH + payloadLength];
                long seqno = seqno(rnd);
                new DataFlyweight().wrap(frame, 0)
                        .write(type, rnd.nextInt(), rnd.nextInt(), rnd.nextInt(), seqno, payload, 0, payloadLength);
                return frame;
            }
            case FrameType.STABLE: {
                int count = 1 + rnd.nextInt(StreamListFlyweight.MAX_PROGRESS_ENTRIES);
                byte[] frame = new byte[StreamListFlyweight.lengthOf(count, StreamListFlyweight.PROGRESS)];
                StreamListFlyweight st = new StreamListFlyweight().wrap(frame, 0);
                st.begin(rnd.nextInt(), rnd.nextInt());
                for (int i = 0; i < count; i++) {
                    long resolved = seqno(rnd);
                    st.add(rnd.nextInt(), resolved,
                            resolved + Math.min(Long.MAX_VALUE - resolved, rnd.nextInt(1 << 16)));
                }
                st.finish();
                return frame;
            }
            case FrameType.NAK:
            case FrameType.GONE:
            case FrameType.SESSION:
            case FrameType.TAIL:
            case FrameType.JOIN_PROBE:
            case FrameType.JOIN_POINT: {
                byte[] frame = new byte[PacketRefFlyweight.lengthOf(type)];
                PacketRefFlyweight ref = new PacketRefFlyweight().wrap(frame, 0);
                if (type == FrameType.TAIL) {
                    ref.writeTail(rnd.nextInt(), rnd.nextInt(), rnd.nextInt(), seqno(rnd), rnd.nextLong());
                } else if (type != FrameType.NAK && type != FrameType.GONE && type != FrameType.SESSION) {
                    ref.writeJoin(type, rnd.nextInt(), rnd.nextInt(), rnd.nextInt(), seqno(rnd), rnd.nextLong());
                } else {
                    ref.write(type, rnd.nextInt(), rnd.nextInt(), rnd.nextInt(), seqno(rnd));
                }
                return frame;
            }
            case FrameType.REPAIR: {
                int sealLength = rnd.nextBoolean() ? 0 : 1 + rnd.nextInt(RepairFlyweight.MAX_SEAL_LENGTH);
                // As many entries as the wire allows and a standard frame holds with that seal.
                int fit = (HeaderFlyweight.STANDARD_FRAME_LENGTH - RepairFlyweight.frameLength(0, 0, sealLength))
                        / (RepairFlyweight.ENTRY_LENGTH + sealLength);
                int count = 1 + rnd.nextInt(Math.min(RepairFlyweight.MAX_ENTRIES, fit));
                int room = HeaderFlyweight.STANDARD_FRAME_LENGTH - RepairFlyweight.frameLength(count, 0, sealLength);
                int longest = payloadLength(rnd, room);
                byte[] frame = new byte[RepairFlyweight.frameLength(count, longest, sealLength)];
                RepairFlyweight fw = new RepairFlyweight().wrap(frame, 0)
                        .writeStart(rnd.nextInt(), count, longest, sealLength);
                int longestAt = rnd.nextInt(count);
                for (int i = 0; i < count; i++) {
                    int entryLength = i == longestAt ? longest : rnd.nextInt(longest + 1);
                    fw.entry(i, rnd.nextInt(), rnd.nextInt(), seqno(rnd), entryLength);
                    fillRandom(rnd, frame, fw.entrySealOffset(i), fw.entrySealOffset(i) + sealLength);
                }
                fillRandom(rnd, frame, fw.payloadOffset(), frame.length);
                return frame;
            }
            case FrameType.FOUNTAIN: {
                int count = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : FountainFlyweight.MAX_PACKETS);
                int room = HeaderFlyweight.STANDARD_FRAME_LENGTH - FountainFlyweight.frameLength(count, 0);
                int longest = payloadLength(rnd, room);
                int size = FountainFlyweight.symbolSize(longest);
                int[] lengths = new int[count];
                int longestAt = rnd.nextInt(count);
                for (int i = 0; i < count; i++) {
                    lengths[i] = i == longestAt ? longest : rnd.nextInt(longest + 1);
                }
                byte[] symbol = new byte[size];
                fillRandom(rnd, symbol, 0, size);
                long first = Math.min(seqno(rnd), Long.MAX_VALUE - count);
                byte[] frame = new byte[FountainFlyweight.frameLength(count, size)];
                new FountainFlyweight().wrap(frame, 0).write(rnd.nextInt(), rnd.nextInt(), first, count, size,
                        rnd.nextLong(), rnd.nextLong(), lengths, symbol, 0);
                return frame;
            }
            case FrameType.HEARTBEAT:
            case FrameType.HEARTBEAT_ACK: {
                byte[] frame = new byte[HeartbeatFlyweight.LENGTH];
                new HeartbeatFlyweight().wrap(frame, 0).write(type, rnd.nextInt(), seqno(rnd), rnd.nextLong());
                return frame;
            }
            default:
                throw new IllegalArgumentException("type " + type);
        }
    }

    private static int payloadLength(SplittableRandom rnd, int max) {
        switch (rnd.nextInt(6)) {
            case 0:
                return Math.min(max, rnd.nextInt(8));
            case 1:
                return Math.min(max, 1024);
            case 2:
                return max;
            default:
                return rnd.nextInt(max + 1);
        }
    }

    private static long seqno(SplittableRandom rnd) {
        switch (rnd.nextInt(4)) {
            case 0:
                return rnd.nextInt(1000);
            case 1:
                return Long.MAX_VALUE - rnd.nextInt(3);
            default:
                return rnd.nextLong() & Long.MAX_VALUE;
        }
    }

    /** Puts magic, version 1, a type in 0..MAX+1 and (usually) the true length on a random array. */
    private static void stampHeader(SplittableRandom rnd, byte[] frame) {
        Bytes.putShort(frame, HeaderFlyweight.MAGIC_OFFSET, HeaderFlyweight.MAGIC);
        frame[HeaderFlyweight.VERSION_OFFSET] = (byte) HeaderFlyweight.VERSION;
        frame[HeaderFlyweight.TYPE_OFFSET] = (byte) rnd.nextInt(FrameType.MAX + 2);
        if (rnd.nextInt(4) != 0) {
            Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, frame.length);
        }
    }

    /** Applies one random mutation; may return a new array. Appends its name to {@code kind}. */
    private static byte[] mutate(SplittableRandom rnd, byte[] frame, StringBuilder kind) {
        int len = frame.length;
        int op = rnd.nextInt(15);
        kind.append('/').append(op);
        switch (op) {
            case 0: // flip 1..4 random bytes anywhere
                if (len > 0) {
                    for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                        frame[rnd.nextInt(len)] ^= (byte) (1 + rnd.nextInt(255));
                    }
                }
                return frame;
            case 1: // flip one byte in the first 36 bytes (header, ids, repair count and first entry)
                if (len > 0) {
                    frame[rnd.nextInt(Math.min(len, 36))] ^= (byte) (1 + rnd.nextInt(255));
                }
                return frame;
            case 2: // truncate, leaving the length field alone
                return Arrays.copyOf(frame, rnd.nextInt(len + 1));
            case 3: // extend with 1..64 random bytes, leaving the length field alone
                return extend(rnd, frame, 1 + rnd.nextInt(64));
            case 4: // random frame length field
                if (len >= 6) {
                    Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, rnd.nextInt(1 << 16));
                }
                return frame;
            case 5: // frame length field off by -4..+4
                if (len >= 6) {
                    Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, len + rnd.nextInt(9) - 4);
                }
                return frame;
            case 6: // truncate and fix the length field
                return withLength(Arrays.copyOf(frame, rnd.nextInt(len + 1)));
            case 7: // extend by 1..200 random bytes and fix the length field (may pass 1472)
                return withLength(extend(rnd, frame, 1 + rnd.nextInt(200)));
            case 8: // random count byte, or count +-1
                if (len > RepairFlyweight.COUNT_OFFSET) {
                    int old = frame[RepairFlyweight.COUNT_OFFSET] & 0xFF;
                    int count = rnd.nextBoolean() ? rnd.nextInt(256) : old + (rnd.nextBoolean() ? 1 : -1);
                    frame[RepairFlyweight.COUNT_OFFSET] = (byte) count;
                }
                return frame;
            case 9: // random payload length field, or +-1; or a random seal length
                if (len >= RepairFlyweight.ENTRIES_OFFSET && rnd.nextInt(3) == 0) {
                    frame[RepairFlyweight.SEAL_LENGTH_OFFSET] = (byte) rnd.nextInt(256);
                } else if (len >= RepairFlyweight.ENTRIES_OFFSET) {
                    int old = Bytes.getUnsignedShort(frame, RepairFlyweight.PAYLOAD_LENGTH_OFFSET);
                    Bytes.putShort(frame, RepairFlyweight.PAYLOAD_LENGTH_OFFSET,
                            rnd.nextBoolean() ? rnd.nextInt(1 << 16) : old + (rnd.nextBoolean() ? 1 : -1));
                }
                return frame;
            case 10: // duplicate an entry: over another one, or inserted as an extra entry with count and length fixed
                return duplicateEntry(rnd, frame);
            case 11: // negative sequence number in a data/ref/heartbeat frame or one repair entry
                if (isType(frame, FrameType.HEARTBEAT) || isType(frame, FrameType.HEARTBEAT_ACK)) {
                    if (len > HeartbeatFlyweight.SEQUENCE_OFFSET) {
                        frame[HeartbeatFlyweight.SEQUENCE_OFFSET] |= (byte) 0x80;
                    }
                } else if (isType(frame, FrameType.REPAIR) && len >= RepairFlyweight.ENTRIES_OFFSET + stride(frame)) {
                    int entries = (len - RepairFlyweight.ENTRIES_OFFSET) / stride(frame);
                    int at = RepairFlyweight.ENTRIES_OFFSET + rnd.nextInt(entries) * stride(frame);
                    frame[at + RepairFlyweight.ENTRY_SEQNO_OFFSET] |= (byte) 0x80;
                } else if (len > DataFlyweight.SEQNO_OFFSET) {
                    frame[DataFlyweight.SEQNO_OFFSET] |= (byte) 0x80;
                }
                return frame;
            case 12: // random entry length field, or the payload length +-1; for a fountain, count/size/one length
                if (isType(frame, FrameType.FOUNTAIN)) {
                    mutateFountainField(rnd, frame);
                } else if (isType(frame, FrameType.REPAIR) && len >= RepairFlyweight.ENTRIES_OFFSET + stride(frame)) {
                    int entries = (len - RepairFlyweight.ENTRIES_OFFSET) / stride(frame);
                    int at = RepairFlyweight.ENTRIES_OFFSET + rnd.nextInt(entries) * stride(frame);
                    int old = Bytes.getUnsignedShort(frame, RepairFlyweight.PAYLOAD_LENGTH_OFFSET);
                    Bytes.putShort(frame, at + RepairFlyweight.ENTRY_LENGTH_OFFSET,
                            rnd.nextBoolean() ? rnd.nextInt(1 << 16) : old + rnd.nextInt(3) - 1);
                }
                return frame;
            case 13: // change the type to another id in 0..MAX+1: same bytes read with another layout
                if (len > HeaderFlyweight.TYPE_OFFSET) {
                    frame[HeaderFlyweight.TYPE_OFFSET] = (byte) rnd.nextInt(FrameType.MAX + 2);
                }
                return frame;
            default: // flip bytes in the payload / reserved / id fields only: usually still valid
                if (len > DataFlyweight.DATA_HEADER_LENGTH) {
                    for (int n = 1 + rnd.nextInt(8); n > 0; n--) {
                        int at = len - 1 - rnd.nextInt(Math.min(len - DataFlyweight.DATA_HEADER_LENGTH, 64));
                        frame[at] ^= (byte) rnd.nextInt(256);
                    }
                }
                if (len >= HeaderFlyweight.HEADER_LENGTH) {
                    frame[HeaderFlyweight.SOURCE_OFFSET + rnd.nextInt(4)] ^= (byte) rnd.nextInt(256);
                    frame[HeaderFlyweight.FLAGS_OFFSET + rnd.nextInt(2)] ^= (byte) rnd.nextInt(256);
                }
                return frame;
        }
    }

    /** Sets a FOUNTAIN frame's count, symbol size or one packet length to a random value, or the old one +-1. */
    private static void mutateFountainField(SplittableRandom rnd, byte[] frame) {
        int len = frame.length;
        if (len < FountainFlyweight.LENGTHS_OFFSET) {
            return;
        }
        int field = rnd.nextInt(3);
        int at = field == 0 ? FountainFlyweight.COUNT_OFFSET : field == 1 ? FountainFlyweight.SYMBOL_SIZE_OFFSET
                : FountainFlyweight.LENGTHS_OFFSET + 2 * rnd.nextInt((len - FountainFlyweight.LENGTHS_OFFSET) / 2 + 1);
        if (at + 2 <= len) {
            int old = Bytes.getUnsignedShort(frame, at);
            Bytes.putShort(frame, at, rnd.nextBoolean() ? rnd.nextInt(1 << 16) : old + rnd.nextInt(3) - 1);
        }
    }

    /** Bytes per repair entry as the frame's seal length says (whatever the frame's type). */
    private static int stride(byte[] frame) {
        int seal = frame.length > RepairFlyweight.SEAL_LENGTH_OFFSET ? frame[RepairFlyweight.SEAL_LENGTH_OFFSET] & 0xFF
                : 0;
        return RepairFlyweight.ENTRY_LENGTH + seal;
    }

    private static byte[] duplicateEntry(SplittableRandom rnd, byte[] frame) {
        int len = frame.length;
        if (!isType(frame, FrameType.REPAIR) || len < RepairFlyweight.ENTRIES_OFFSET) {
            return frame;
        }
        int count = frame[RepairFlyweight.COUNT_OFFSET] & 0xFF;
        int room = (len - RepairFlyweight.ENTRIES_OFFSET) / stride(frame);
        int entries = Math.min(count, room);
        if (entries < 1) {
            return frame;
        }
        int from = RepairFlyweight.ENTRIES_OFFSET + rnd.nextInt(entries) * stride(frame);
        if (rnd.nextBoolean()) {
            int to = RepairFlyweight.ENTRIES_OFFSET + rnd.nextInt(entries) * stride(frame);
            System.arraycopy(frame, from, frame, to, stride(frame));
            return frame;
        }
        // Insert a copy of the entry right after the existing entries.
        int insertAt = RepairFlyweight.ENTRIES_OFFSET + entries * stride(frame);
        byte[] grown = new byte[len + stride(frame)];
        System.arraycopy(frame, 0, grown, 0, insertAt);
        System.arraycopy(frame, from, grown, insertAt, stride(frame));
        System.arraycopy(frame, insertAt, grown, insertAt + stride(frame), len - insertAt);
        grown[RepairFlyweight.COUNT_OFFSET] = (byte) (count + 1);
        return withLength(grown);
    }

    private static boolean isType(byte[] frame, int type) {
        return frame.length > HeaderFlyweight.TYPE_OFFSET && (frame[HeaderFlyweight.TYPE_OFFSET] & 0xFF) == type;
    }

    private static byte[] withLength(byte[] frame) {
        if (frame.length >= HeaderFlyweight.FLAGS_OFFSET) {
            Bytes.putShort(frame, HeaderFlyweight.FRAME_LENGTH_OFFSET, frame.length);
        }
        return frame;
    }

    private static byte[] extend(SplittableRandom rnd, byte[] frame, int extra) {
        byte[] grown = Arrays.copyOf(frame, frame.length + extra);
        fillRandom(rnd, grown, frame.length, grown.length);
        return grown;
    }

    private static void fillRandom(SplittableRandom rnd, byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
    }

    private static String context(int iter, String kind, byte[] frame) {
        return "seed=" + SEED + " iteration=" + iter + " input=" + kind + " length=" + frame.length
                + " bytes=" + HexFormat.of().formatHex(frame);
    }
}
