package io.ricochet.fountain.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.engine.Counters;
import io.ricochet.fountain.LtEncoder;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.wire.FountainFlyweight;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The receiver's decoding of fountain ranges and its bounds: ranges at once, packets per range, garbage symbols; each
 * missing packet handed on once the decoder knows it, the held ones told to the decoder.
 */
class FountainReceiverTest {
    private static final int ORIGIN = 4;
    private static final int G = 9;

    private final Counters counters = new Counters(RicochetProtocol.FOUNTAIN_COUNTERS);
    private final Set<Long> missing = new HashSet<>();
    private final Map<Long, byte[]> rebuilt = new HashMap<>();
    private final FountainReceiver receiver = new FountainReceiver(2, 64, counters, new FountainReceiver.Packets() {
        @Override
        public boolean missing(int origin, int group, long seqno) {
            return origin == ORIGIN && group == G && missing.contains(seqno);
        }

        @Override
        public void rebuilt(int origin, int group, long seqno, byte[] payload, int offset, int length, long nowNs) {
            rebuilt.put(seqno, Arrays.copyOfRange(payload, offset, offset + length));
            missing.remove(seqno);
        }

        @Override
        public int copyHeld(int origin, int group, long seqno, byte[] dst, int offset) {
            if (!holding || origin != ORIGIN || group != G || missing.contains(seqno)) {
                return -1;
            }
            byte[] p = payload(seqno);
            System.arraycopy(p, 0, dst, offset, p.length);
            return p.length;
        }
    }, 64);
    /** Whether this node's data cache still holds the packets it received (the engine's side information). */
    private boolean holding;

    /** Payload of packet s: s + 1 bytes of value s. */
    private static byte[] payload(long s) {
        byte[] p = new byte[(int) (s % 40) + 1];
        Arrays.fill(p, (byte) s);
        return p;
    }

    /** Symbol {@code id} of the range [first, first + count) with {@code seed}, as a FOUNTAIN frame. */
    private static FountainFlyweight symbol(long first, int count, long seed, long id) {
        int[] lengths = new int[count];
        int longest = 0;
        for (int i = 0; i < count; i++) {
            lengths[i] = payload(first + i).length;
            longest = Math.max(longest, lengths[i]);
        }
        int size = FountainFlyweight.symbolSize(longest);
        byte[] message = new byte[count * size];
        for (int i = 0; i < count; i++) {
            System.arraycopy(payload(first + i), 0, message, i * size, lengths[i]);
        }
        byte[] symbol = new byte[size];
        new LtEncoder(message, 0, message.length, size, FountainFlyweight.C, FountainFlyweight.DELTA, seed)
                .encode(id, symbol, 0);
        byte[] frame = new byte[FountainFlyweight.frameLength(count, size)];
        FountainFlyweight f = new FountainFlyweight().wrap(frame, 0);
        f.write(ORIGIN, G, first, count, size, seed, id, lengths, symbol, 0);
        return f;
    }

    private void missRange(long first, int count) {
        for (long s = first; s < first + count; s++) {
            missing.add(s);
        }
    }

    @Test
    void shouldRebuildEveryMissingPacketOfARangeOnce() {
        missRange(100, 30);
        missing.remove(105L); // this one arrived: it is not handed on again
        for (long id = 0; id < 200 && !missing.isEmpty(); id++) {
            receiver.onSymbol(symbol(100, 30, 77, id), 0);
        }
        assertEquals(29, rebuilt.size());
        for (long s = 100; s < 130; s++) {
            if (s != 105) {
                assertArrayEquals(payload(s), rebuilt.get(s), "packet " + s);
            }
        }
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_RANGES_DECODED));
        assertEquals(0, receiver.decoding());
        receiver.onSymbol(symbol(100, 30, 77, 99), 0);
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_SYMBOLS_USELESS), "nothing missed any more");
    }

    @Test
    void shouldDropSymbolsOfRangesItMissesNothingOf() {
        missRange(0, 5);
        receiver.onSymbol(symbol(10, 30, 1, 0), 0);
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_SYMBOLS_USELESS));
        assertEquals(0, receiver.decoding(), "no decoder made");
    }

    @Test
    void shouldBoundRangesAtOnceAndPacketsPerRange() {
        missRange(0, 300);
        receiver.onSymbol(symbol(0, 65, 1, 0), 0);
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_SYMBOLS_REFUSED), "65 packets: over the bound of 64");
        assertEquals(0, receiver.decoding());
        receiver.onSymbol(symbol(0, 10, 1, 0), 1);
        receiver.onSymbol(symbol(20, 10, 1, 0), 2);
        receiver.onSymbol(symbol(0, 10, 1, 1), 3);
        receiver.onSymbol(symbol(40, 10, 1, 0), 4);
        assertEquals(2, receiver.decoding(), "at most two at once");
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_RANGES_EVICTED), "the least recently fed one went");
        receiver.onSymbol(symbol(0, 10, 1, 2), 5);
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_RANGES_EVICTED), "range 0 was kept: fed at 3");
    }

    @Test
    void shouldRefuseSymbolsThatDisagreeWithTheirRange() {
        missRange(0, 10);
        receiver.onSymbol(symbol(0, 10, 1, 0), 0);
        FountainFlyweight garbage = symbol(0, 10, 1, 1);
        garbage.buffer()[FountainFlyweight.LENGTHS_OFFSET + 1] ^= 1; // one packet's length changed
        receiver.onSymbol(garbage, 0);
        assertEquals(1, counters.get(FountainCounter.FOUNTAIN_SYMBOLS_REFUSED));
        for (long id = 1; id < 200 && !missing.isEmpty(); id++) {
            receiver.onSymbol(symbol(0, 10, 1, id), 0);
        }
        assertEquals(10, rebuilt.size(), "the garbage changed nothing");
        assertArrayEquals(payload(3), rebuilt.get(3L));
    }

    @Test
    void shouldNeedSymbolsForTheMissingPacketsOnlyWhenItHoldsTheOthers() {
        long[] lost = {203, 217, 230, 241, 255};
        int needed = symbolsToRebuild(lost, true);
        assertEquals(lost.length, rebuilt.size());
        for (long s : lost) {
            assertArrayEquals(payload(s), rebuilt.get(s), "packet " + s);
        }
        int withoutHeld = symbolsToRebuild(lost, false);
        org.junit.jupiter.api.Assertions.assertTrue(needed < withoutHeld / 2,
                needed + " symbols with the held packets, " + withoutHeld + " without, for 5 of 60");
    }

    /** Feeds symbols of the range [200, 260) until the lost packets are rebuilt; returns how many it took. */
    private int symbolsToRebuild(long[] lost, boolean hold) {
        rebuilt.clear();
        missing.clear();
        holding = hold;
        for (long s : lost) {
            missing.add(s);
        }
        int fed = 0;
        for (long id = 0; id < 500 && !missing.isEmpty(); id++) {
            receiver.onSymbol(symbol(200, 60, 5 + (hold ? 0 : 1), id), 0);
            fed++;
        }
        return fed;
    }
}
