package io.ricochet.fountain.backup;

import io.ricochet.engine.Counters;
import io.ricochet.fountain.LtDecoder;
import io.ricochet.wire.FountainFlyweight;
import java.util.ArrayList;
import java.util.List;

/**
 * The receiver's half of the fountain backup behind LEC (docs/design/fountain.md, section 6): validated FOUNTAIN
 * symbols of ranges this node misses packets of are fed to one {@link LtDecoder} per range; once a range decodes,
 * the packets of it still missing are handed on as recovered. Bounded: at most {@code maxRanges} ranges decode at
 * once (the least recently fed is dropped for a new one), each of at most {@code maxPackets} packets. Symbols of a
 * range this node misses nothing of are dropped before any decoding state is made.
 */
public final class FountainReceiver {
    /** What the engine answers about its streams, and where rebuilt packets go. */
    public interface Packets {
        /** Whether this node misses the packet (a listed stream, discovered and neither delivered nor given up). */
        boolean missing(int origin, int group, long seqno);

        /** A packet rebuilt from symbols of its origin; {@code payload[offset, offset + length)}. */
        void rebuilt(int origin, int group, long seqno, byte[] payload, int offset, int length, long nowNs);

        /**
         * Copies the payload of a packet this node holds (its data cache) to {@code dst[offset]}; returns its length,
         * or -1 if it is not held (never received, or evicted). {@code dst} has room for the largest payload.
         */
        int copyHeld(int origin, int group, long seqno, byte[] dst, int offset);
    }

    /** One range being decoded. */
    private static final class Decoding {
        final int origin;
        final int group;
        final long first;
        final long seed;
        final int[] lengths;
        final LtDecoder decoder;
        long lastFedNs;

        Decoding(int origin, FountainFlyweight symbol) {
            this.origin = origin;
            this.group = symbol.group();
            this.first = symbol.first();
            this.seed = symbol.seed();
            int count = symbol.count();
            this.lengths = new int[count];
            for (int i = 0; i < count; i++) {
                lengths[i] = symbol.length(i);
            }
            this.decoder = new LtDecoder(count, symbol.symbolSize(), FountainFlyweight.C, FountainFlyweight.DELTA,
                    seed, 2 * count + 8);
        }

        boolean names(int from, FountainFlyweight symbol) {
            return origin == from && group == symbol.group() && first == symbol.first() && seed == symbol.seed()
                    && lengths.length == symbol.count();
        }

        /** Whether the symbol's lengths and size are this range's (a symbol that disagrees is malformed). */
        boolean agrees(FountainFlyweight symbol) {
            if (symbol.symbolSize() * decoder.k() != decoder.message().length) {
                return false;
            }
            for (int i = 0; i < lengths.length; i++) {
                if (symbol.length(i) != lengths[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private final int maxRanges;
    private final int maxPackets;
    private final Counters counters;
    private final Packets packets;
    private final List<Decoding> ranges = new ArrayList<>();
    /** A held packet's bytes on their way to a decoder. */
    private final byte[] held;

    /**
     * @param maxRanges  ranges decoded at once
     * @param maxPackets packets in one range at most (a larger one is refused)
     * @param counters   where symbols, ranges and recoveries are counted ({@link FountainCounter})
     * @param packets    the engine's streams
     * @param maxPayload the largest payload a held packet may have
     */
    public FountainReceiver(int maxRanges, int maxPackets, Counters counters, Packets packets, int maxPayload) {
        this.held = new byte[maxPayload];
        this.maxRanges = maxRanges;
        this.maxPackets = maxPackets;
        this.counters = counters;
        this.packets = packets;
    }

    /** A validated FOUNTAIN frame whose origin (its source) is listed in its group, of which this node is a member. */
    public void onSymbol(FountainFlyweight symbol, long nowNs) {
        counters.increment(FountainCounter.FOUNTAIN_SYMBOLS_RECEIVED);
        int origin = symbol.source();
        Decoding range = find(origin, symbol);
        if (range == null) {
            if (!missesAny(origin, symbol)) {
                counters.increment(FountainCounter.FOUNTAIN_SYMBOLS_USELESS);
                return;
            }
            if (symbol.count() > maxPackets) {
                counters.increment(FountainCounter.FOUNTAIN_SYMBOLS_REFUSED);
                return;
            }
            if (ranges.size() == maxRanges) {
                evictLeastRecent();
            }
            range = new Decoding(origin, symbol);
            ranges.add(range);
        } else if (!range.agrees(symbol)) {
            counters.increment(FountainCounter.FOUNTAIN_SYMBOLS_REFUSED);
            return;
        }
        range.lastFedNs = nowNs;
        tellHeld(range);
        int result = range.decoder.receive(symbol.symbolId(), symbol.buffer(), symbol.symbolOffset(),
                symbol.symbolSize());
        if (result < 0) {
            counters.increment(FountainCounter.FOUNTAIN_SYMBOLS_REFUSED);
        }
        if (deliver(range, nowNs)) {
            ranges.remove(range);
            counters.increment(FountainCounter.FOUNTAIN_RANGES_DECODED);
        }
    }

    /**
     * Tells the range's decoder every packet of the range this node holds and the decoder does not know yet (it
     * arrived, or was repaired, since): each symbol is then reduced by them, so the symbols serve the packets this
     * node misses, whichever they are, as they serve other receivers' different ones.
     */
    private void tellHeld(Decoding range) {
        for (int i = 0; i < range.lengths.length; i++) {
            if (!range.decoder.isKnown(i) && !packets.missing(range.origin, range.group, range.first + i)) {
                int length = packets.copyHeld(range.origin, range.group, range.first + i, held, 0);
                if (length == range.lengths[i]) {
                    range.decoder.know(i, held, 0, length);
                }
            }
        }
    }

    /** Ranges being decoded now. */
    public int decoding() {
        return ranges.size();
    }

    /** Memory held by the decoders, roughly: their messages and pools. */
    public long memoryBytes() {
        long bytes = 0;
        for (Decoding range : ranges) {
            bytes += 3L * range.decoder.message().length;
        }
        return bytes;
    }

    /** Forgets the ranges of a sender's old incarnation. */
    public void forgetStream(int origin, int group) {
        ranges.removeIf(r -> r.origin == origin && r.group == group);
    }

    private Decoding find(int origin, FountainFlyweight symbol) {
        for (Decoding range : ranges) {
            if (range.names(origin, symbol)) {
                return range;
            }
        }
        return null;
    }

    private boolean missesAny(int origin, FountainFlyweight symbol) {
        for (int i = 0, count = symbol.count(); i < count; i++) {
            if (packets.missing(origin, symbol.group(), symbol.first() + i)) {
                return true;
            }
        }
        return false;
    }

    private void evictLeastRecent() {
        Decoding oldest = ranges.get(0);
        for (Decoding range : ranges) {
            if (range.lastFedNs - oldest.lastFedNs < 0) {
                oldest = range;
            }
        }
        ranges.remove(oldest);
        counters.increment(FountainCounter.FOUNTAIN_RANGES_EVICTED);
    }

    /**
     * Hands on every packet of the range this node misses that the decoder knows now; true once none is missing any
     * more (the range is done, whether the decoder has all of it or not).
     */
    private boolean deliver(Decoding range, long nowNs) {
        byte[] message = range.decoder.message();
        int size = message.length / range.lengths.length;
        boolean missingLeft = false;
        for (int i = 0; i < range.lengths.length; i++) {
            long seqno = range.first + i;
            if (packets.missing(range.origin, range.group, seqno)) {
                if (range.decoder.isKnown(i)) {
                    packets.rebuilt(range.origin, range.group, seqno, message, i * size, range.lengths[i], nowNs);
                } else {
                    missingLeft = true;
                }
            }
        }
        return !missingLeft;
    }
}
