package io.ricochet.fec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameValidator.Verdict;
import io.ricochet.wire.HeaderFlyweight;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the FEC receive path: the validator against an independent reference written from the documented
 * layout, reads of every field of accepted frames in an exact-size copy (so any out-of-bounds read throws), and
 * a receiving engine fed with mutations of real traffic. Nothing may throw. Seeded; the seed is in every message.
 */
class FecFuzzTest {
    private static final long SEED = Long.getLong("ricochet.fuzz.seed", 0x4645430L);

    /** The layout rules of {@link FecRepairFlyweight}, restated independently of the validator. */
    private static boolean referenceValid(byte[] b) {
        int n = b.length;
        if (n < 30 || (Bytes.getUnsignedShort(b, 0) != HeaderFlyweight.MAGIC) || b[2] != HeaderFlyweight.VERSION
                || (b[3] & 0xFF) != 24 || Bytes.getUnsignedShort(b, 4) != n || n > 65_475) {
            return false;
        }
        int r = b[24] & 0xFF;
        int c = b[25] & 0xFF;
        int index = b[26] & 0xFF;
        long start = Bytes.getLong(b, 16);
        if (r == 0 || r > 64 || c == 0 || c > 32 || index >= c || b[27] != 0 || start < 0 || start + r < 0) {
            return false;
        }
        int coded = Bytes.getUnsignedShort(b, 28);
        if (30 + 2 * r + coded != n) {
            return false;
        }
        int longest = 0;
        for (int j = 0; j < r; j++) {
            longest = Math.max(longest, Bytes.getUnsignedShort(b, 30 + 2 * j));
        }
        return longest == coded;
    }

    /** One random mutation; field overwrites only where the (possibly truncated) frame still has the field. */
    private static byte[] mutate(SplittableRandom rng, byte[] frame) {
        byte[] b = frame.clone();
        int kind = rng.nextInt(7);
        if (b.length == 0 || kind == 1) {
            return Arrays.copyOf(b, b.length == 0 ? 0 : rng.nextInt(b.length));
        }
        if (kind == 0) {
            b[rng.nextInt(b.length)] ^= (byte) (1 << rng.nextInt(8));
        } else if (kind == 2) {
            b = Arrays.copyOf(b, b.length + 1 + rng.nextInt(8));
        } else if (kind == 3 && b.length >= 28) {
            b[24 + rng.nextInt(4)] = (byte) rng.nextInt(256);
        } else if (kind == 4 && b.length >= 30) {
            Bytes.putShort(b, 28, rng.nextInt(1 << 16));
        } else if (kind == 5 && b.length >= 32) {
            Bytes.putShort(b, 30 + 2 * rng.nextInt((b.length - 30) / 2), rng.nextInt(1 << 16));
        } else if (b.length > 3) {
            b[3] = (byte) (24 + rng.nextInt(8));
        }
        return b;
    }

    /** Reads every field of an accepted frame; throws if any read leaves the frame. */
    private static long readAll(byte[] exact) {
        FecRepairFlyweight f = new FecRepairFlyweight().wrap(exact, 0);
        long sum = f.group() + f.blockStart() + f.r() + f.c() + f.index() + f.codedLength();
        for (int j = 0; j < f.r(); j++) {
            sum += f.dataLength(j);
        }
        for (int i = 0; i < f.codedLength(); i++) {
            sum += exact[f.payloadOffset() + i];
        }
        return sum;
    }

    @Test
    void shouldAgreeWithTheReferenceAndStayInBoundsOnMutatedAndRandomFrames() {
        SplittableRandom rng = new SplittableRandom(SEED);
        int accepted = 0;
        int rejected = 0;
        for (int iter = 0; iter < 60_000; iter++) {
            byte[] frame;
            if (iter % 4 == 0) {
                frame = new byte[rng.nextInt(1600)];
                rng.nextBytes(frame);
                if (frame.length >= 12 && rng.nextBoolean()) {
                    new FecRepairFlyweight().wrap(frame, 0).writeHeader(24, 1);
                    Bytes.putShort(frame, 4, frame.length);
                }
            } else {
                frame = FecRepairFlyweightTest.repair(rng);
                for (int m = rng.nextInt(3); m >= 0; m--) {
                    frame = mutate(rng, frame);
                }
            }
            int offset = rng.nextInt(16);
            byte[] padded = new byte[offset + frame.length + rng.nextInt(16)];
            System.arraycopy(frame, 0, padded, offset, frame.length);
            String what = "seed=" + SEED + " iteration " + iter;
            Verdict inPlace = FecFrameValidator.check(padded, offset, frame.length);
            Verdict exact = FecFrameValidator.check(frame, 0, frame.length);
            assertEquals(exact, inPlace, what);
            assertEquals(referenceValid(frame), exact == Verdict.OK, what + " verdict " + exact);
            if (exact == Verdict.OK) {
                readAll(frame);
                accepted++;
            } else {
                rejected++;
            }
        }
        assertTrue(accepted > 5_000 && rejected > 20_000, "accepted " + accepted + " rejected " + rejected);
    }

    @Test
    void shouldNeverThrowFromTheEngineAndKeepItsLossLedgerBalanced() {
        SplittableRandom rng = new SplittableRandom(SEED ^ 0x5DEECE66DL);
        FecConfig config = FecConfig.builder().r(8).c(3).build();
        FecHarness traffic = new FecHarness(config);
        List<RecordingOutbox.Sent> real = new ArrayList<>(traffic.send(64));
        traffic.advanceTo(traffic.nowNs + config.nakSettings().nakTimeoutNs());
        FecEngine receiver = new FecEngine(2, config, new RecordingOutbox());
        receiver.onMembership(MembershipEvent.join(FecHarness.GROUP, 2), 0);
        receiver.onMembership(MembershipEvent.join(FecHarness.GROUP, FecHarness.SENDER), 0);
        long nowNs = 0;
        for (int iter = 0; iter < 40_000; iter++) {
            byte[] frame = real.get(rng.nextInt(real.size())).frame();
            if (rng.nextInt(4) != 0) {
                frame = mutate(rng, frame);
            }
            receiver.onPacket(frame, 0, frame.length, nowNs);
            if (rng.nextInt(50) == 0) {
                nowNs += rng.nextLong(200_000_000L);
                receiver.onTimer(nowNs);
            }
        }
        receiver.onTimer(nowNs + 10_000_000_000L);
        receiver.onTimer(nowNs + 20_000_000_000L);
        long detected = receiver.counters().get(EngineCounter.LOSSES_DETECTED);
        long ended = receiver.counters().get(FecCounter.FEC_RECOVERED)
                + receiver.counters().get(EngineCounter.RECOVERED_BY_NAK)
                + receiver.counters().get(EngineCounter.LATE_ARRIVALS)
                + receiver.counters().get(EngineCounter.UNRECOVERED) + receiver.pendingLosses();
        assertEquals(detected, ended, "seed=" + SEED + ": every detected loss is pending, recovered or given up");
        assertTrue(receiver.counters().get(EngineCounter.INVALID_PACKETS) > 1000, "seed=" + SEED);
        assertTrue(receiver.counters().get(EngineCounter.DELIVERED) > 0, "seed=" + SEED);
    }
}
