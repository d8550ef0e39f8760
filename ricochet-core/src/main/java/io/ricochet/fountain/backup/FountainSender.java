package io.ricochet.fountain.backup;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.PacketStore;
import io.ricochet.engine.TokenBucket;
import io.ricochet.fountain.LtEncoder;
import io.ricochet.wire.FountainFlyweight;
import java.util.ArrayList;
import java.util.List;

/**
 * The sender's half of the fountain backup behind LEC (docs/design/fountain.md, section 6). When a member's NAKs run
 * over more consecutive seqnos of one of this node's streams than LEC repairs ({@link NakRuns}), the NAKs from there
 * on are not answered one by one: a range opens at that seqno and grows with every NAK for the next seqno (from any
 * member) until none came for the gather time or it holds {@code maxPackets}. Its packets, taken from the
 * retransmit buffer and padded to the longest, are then LT-coded, and count x (1 + margin) + extra symbols are
 * multicast to the group, paced by a token bucket like retransmissions. NAKs for a packet of a range that is still
 * gathering or sending are absorbed; once its symbols are out, NAKs get retransmissions again, so per-packet NAK
 * repairs whatever the fountain did not. At most {@link #MAX_RANGES} ranges are open at once.
 */
public final class FountainSender {
    /** Ranges gathering or sending at once; a run beyond them is answered packet by packet. */
    public static final int MAX_RANGES = 8;
    /** Symbols sent over a range of count packets: count x (1 + MARGIN) + EXTRA (LT's overhead at small k). */
    public static final double MARGIN = 0.15;
    public static final int EXTRA = 4;
    /** NAKs a range remembers to answer one by one if it turns out cheaper than coding; beyond, it is coded. */
    static final int MAX_REMEMBERED = 1024;

    /** Answers a NAK the usual way: a retransmission, or GONE ({@code io.ricochet.nak.NakResponder#answer}). */
    public interface Answerer {
        void answer(int requester, int group, long seqno, int nakLength, long nowNs);
    }

    private final int self;
    private final int maxPackets;
    private final long gatherNs;
    private final PacketStore buffer;
    private final NakRuns runs;
    private final TokenBucket pacer;
    private final Counters counters;
    private final Outbox outbox;
    private final Answerer answerer;
    private final List<Range> ranges = new ArrayList<>(MAX_RANGES);
    private final byte[] symbol;
    private final byte[] frame;
    private final FountainFlyweight out;
    private long serial;
    /** When the pacer has a token for a range still sending after the last {@link #poll}. */
    private long nextSendNs = Long.MAX_VALUE;

    /** One range of this node's packets in one group: gathering NAKs, then sending symbols. */
    private static final class Range {
        final int group;
        final long first;
        long last;
        long closeAtNs;
        LtEncoder encoder;
        int[] lengths;
        int symbolSize;
        long seed;
        int toSend;
        int sent;
        // The NAKs absorbed while gathering (up to MAX_REMEMBERED), to answer one by one if that costs fewer packets
        // than the symbols would.
        int[] requesters = new int[16];
        long[] seqnos = new long[16];
        int[] nakLengths = new int[16];
        int naks;

        void remember(int requester, long seqno, int nakLength) {
            if (naks == requesters.length) {
                if (naks == MAX_REMEMBERED) {
                    naks++; // more than remembered: the range is coded whatever the count
                    return;
                }
                requesters = java.util.Arrays.copyOf(requesters, naks * 2);
                seqnos = java.util.Arrays.copyOf(seqnos, naks * 2);
                nakLengths = java.util.Arrays.copyOf(nakLengths, naks * 2);
            }
            if (naks < requesters.length) {
                requesters[naks] = requester;
                seqnos[naks] = seqno;
                nakLengths[naks] = nakLength;
                naks++;
            }
        }

        Range(int group, long first, long closeAtNs) {
            this.group = group;
            this.first = first;
            this.last = first;
            this.closeAtNs = closeAtNs;
        }

        int count() {
            return (int) (last - first + 1);
        }

        boolean sending() {
            return encoder != null;
        }
    }

    /**
     * @param self       this node's id
     * @param threshold  a member's NAK run longer than this opens a range (stagger x r)
     * @param maxPackets packets in one range at most ({@link FountainFlyweight#maxPackets})
     * @param maxPayload the largest payload
     * @param gatherNs   a gathering range is sent once no NAK extended it for this long
     * @param perSecond  symbols per second at most (the retransmissions' rate limit; 0 = none)
     * @param buffer     the retransmit buffer the range's packets come from
     * @param counters   where ranges, symbols and absorbed NAKs are counted ({@link FountainCounter})
     * @param outbox     where symbols go
     * @param answerer   answers the NAKs of a range that is cheaper to answer one by one
     */
    public FountainSender(int self, int threshold, int maxPackets, int maxPayload, long gatherNs, int perSecond,
                          PacketStore buffer, Counters counters, Outbox outbox, Answerer answerer) {
        if (maxPackets < 1 || maxPackets > FountainFlyweight.MAX_PACKETS) {
            throw new IllegalArgumentException("a fountain range of at most " + maxPackets + " packets: must be in 1.."
                    + FountainFlyweight.MAX_PACKETS);
        }
        this.self = self;
        this.maxPackets = maxPackets;
        this.gatherNs = gatherNs;
        this.buffer = buffer;
        this.runs = new NakRuns(threshold);
        this.pacer = new TokenBucket(perSecond, Math.max(1, perSecond / 10));
        this.counters = counters;
        this.outbox = outbox;
        this.answerer = answerer;
        int symbolSize = FountainFlyweight.symbolSize(maxPayload);
        this.symbol = new byte[symbolSize];
        this.frame = new byte[FountainFlyweight.frameLength(maxPackets, symbolSize)];
        this.out = new FountainFlyweight().wrap(frame, 0);
    }

    /**
     * A validated NAK for this node's packet {@code seqno} in {@code group} (sent already), from a member: true if
     * a fountain range answers it (it gets no retransmission), false if it is to be answered as usual.
     */
    public boolean onNak(int requester, int group, long seqno, int nakLength, long nowNs) {
        for (Range range : ranges) {
            if (range.group != group) {
                continue;
            }
            boolean inside = seqno >= range.first && seqno <= range.last;
            if (!inside && !range.sending() && seqno == range.last + 1 && range.count() < maxPackets) {
                range.last = seqno;
                range.closeAtNs = nowNs + gatherNs;
                inside = true;
            }
            if (inside) {
                if (!range.sending()) {
                    range.remember(requester, seqno, nakLength);
                }
                counters.increment(FountainCounter.FOUNTAIN_NAKS_ABSORBED);
                return true;
            }
        }
        if (!runs.nak(requester, group, seqno) || ranges.size() == MAX_RANGES) {
            return false;
        }
        Range range = new Range(group, seqno, nowNs + gatherNs);
        range.remember(requester, seqno, nakLength);
        ranges.add(range);
        counters.increment(FountainCounter.FOUNTAIN_NAKS_ABSORBED);
        return true;
    }

    /** Sends the ranges whose gathering is over, as far as the pacing allows. */
    public void poll(long nowNs) {
        for (int i = 0; i < ranges.size(); i++) {
            Range range = ranges.get(i);
            if (!range.sending() && range.closeAtNs - nowNs <= 0) {
                if (cheaperOneByOne(range)) {
                    ranges.remove(i--);
                    counters.increment(FountainCounter.FOUNTAIN_RANGES_ANSWERED_AS_NAKS);
                    for (int n = 0; n < range.naks; n++) {
                        answerer.answer(range.requesters[n], range.group, range.seqnos[n], range.nakLengths[n], nowNs);
                    }
                    continue;
                }
                if (!encode(range)) {
                    ranges.remove(i--);
                    continue;
                }
            }
            if (range.sending()) {
                while (range.sent < range.toSend && pacer.tryAcquire(nowNs)) {
                    send(range);
                }
                if (range.sent == range.toSend) {
                    ranges.remove(i--);
                }
            }
        }
        nextSendNs = Long.MAX_VALUE;
        for (Range range : ranges) {
            if (range.sending()) {
                nextSendNs = pacer.availableAtNs(nowNs);
            }
        }
    }

    /**
     * Whether answering the NAKs the range gathered one by one costs fewer packets than its symbols would: a run one
     * receiver missed (its retransmissions are as many as its losses, the symbols more), or a short one. The NAKs of
     * members that ask later are answered as usual either way.
     */
    private static boolean cheaperOneByOne(Range range) {
        return range.naks <= MAX_REMEMBERED && range.naks <= symbolsFor(range.count());
    }

    /** Symbols sent for a range of {@code count} packets. */
    static int symbolsFor(int count) {
        return (int) Math.ceil(count * (1 + MARGIN)) + EXTRA;
    }

    /** The earliest time {@link #poll} has work: a gathering range's end, or the pacer's next token. */
    public long nextDeadlineNs() {
        long next = nextSendNs;
        for (Range range : ranges) {
            if (!range.sending()) {
                next = Math.min(next, range.closeAtNs);
            }
        }
        return next;
    }

    /** Ranges gathering or sending now. */
    public int openRanges() {
        return ranges.size();
    }

    /**
     * Copies the range's packets into one message of padded source symbols and makes its encoder; a range is cut
     * before its first packet no longer buffered (false if none is left: its NAKs will be answered GONE).
     */
    private boolean encode(Range range) {
        int count = 0;
        int longest = 0;
        int[] slots = new int[range.count()];
        for (; count < slots.length; count++) {
            int slot = buffer.find(new PacketId(self, range.group, range.first + count));
            if (slot < 0) {
                break;
            }
            slots[count] = slot;
            longest = Math.max(longest, buffer.length(slot));
        }
        if (count < slots.length) {
            counters.increment(FountainCounter.FOUNTAIN_RANGES_CUT);
            range.last = range.first + count - 1;
        }
        if (count == 0) {
            return false;
        }
        int symbolSize = FountainFlyweight.symbolSize(longest);
        byte[] message = new byte[count * symbolSize];
        range.lengths = new int[count];
        for (int i = 0; i < count; i++) {
            range.lengths[i] = buffer.length(slots[i]);
            System.arraycopy(buffer.payload(slots[i]), buffer.offset(slots[i]), message, i * symbolSize,
                    range.lengths[i]);
        }
        range.symbolSize = symbolSize;
        range.seed = seed(range.group, range.first, serial++);
        range.encoder = new LtEncoder(message, 0, message.length, symbolSize, FountainFlyweight.C,
                FountainFlyweight.DELTA, range.seed);
        range.toSend = symbolsFor(count);
        counters.increment(FountainCounter.FOUNTAIN_RANGES_SENT);
        return true;
    }

    private void send(Range range) {
        range.encoder.encode(range.sent, symbol, 0);
        int length = out.write(self, range.group, range.first, range.count(), range.symbolSize, range.seed,
                range.sent, range.lengths, symbol, 0);
        range.sent++;
        counters.increment(FountainCounter.FOUNTAIN_SYMBOLS_SENT);
        outbox.multicast(range.group, frame, 0, length);
    }

    /** A seed of its own for each range this node sends (deterministic: no random draw). */
    private long seed(int group, long first, long n) {
        long z = ((long) self << 32 | (group & 0xFFFFFFFFL)) ^ Long.rotateLeft(first, 17) ^ (n * 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
