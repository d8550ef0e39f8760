package io.ricochet.engine;

/**
 * Which sequence numbers of one (sender, group) stream are resolved, i.e. delivered or given up. Every seqno
 * below {@link #base()} is resolved here; above it a ring of bits covers at most {@code maxWindow} seqnos, grown on
 * demand, so an idle stream costs a few words. It also remembers the highest seqno known to exist, which is how
 * a sequence gap is found.
 *
 * <p>The window never wedges: resolving a seqno beyond {@code base + maxWindow} slides the base up to make room
 * ({@code docs/design/lec.md}, "Receive window"). The unresolved seqnos it slides over are losses already
 * registered with the owner's loss table, which stays their authority until they are recovered or given up (the
 * owner asks it about a seqno below the base). Only a jump beyond {@link #maxJump()} restarts the window where the
 * packet is ({@link #restartAt}): that much cannot be walked seqno by seqno for one packet.
 */
public final class ReceiveWindow {
    /**
     * Below this seqno, a stream first seen mid-way is taken to have started after this node joined: tracked from
     * 0, so a loss of its very first packets is still found. Far into its numbering it is history this node never
     * had, and it starts where it was first seen (no NAKs for that history).
     */
    public static final long YOUNG_STREAM_SEQNOS = 64;

    /** How many times {@code maxWindow} a single packet may reveal at once before the window restarts. */
    public static final int MAX_JUMP_WINDOWS = 64;
    /**
     * Most seqnos one frame reveals at once: a longer gap is revealed this many at a time (the loss table's owner
     * goes on from a timer), so a small packet cannot buy a large amount of work.
     */
    public static final int MAX_REVEAL = 1024;

    private final int maxWindow;
    private long base;
    private long highest;
    private long[] words = new long[1];

    /**
     * @param base      first seqno this node expects from the stream (0 when it saw the sender join)
     * @param maxWindow most seqnos the window may span above {@code base}
     */
    public ReceiveWindow(long base, int maxWindow) {
        this.base = base;
        this.highest = base - 1;
        this.maxWindow = maxWindow;
    }

    /** The first seqno to expect from a stream whose first packet seen here is {@code firstSeen}. */
    public static long baseForFirstSeen(long firstSeen) {
        return firstSeen < YOUNG_STREAM_SEQNOS ? 0 : firstSeen;
    }

    public long base() {
        return base;
    }

    /** Highest seqno known to exist (received or named by a repair); {@code base() - 1} if none. */
    public long highest() {
        return highest;
    }

    /** Every seqno up to this one is revealed (resolved, or registered as a loss): {@code max(highest, base - 1)}. */
    public long revealed() {
        return Math.max(highest, base - 1);
    }

    public boolean isResolved(long seqno) {
        if (seqno < base) {
            return true;
        }
        if (seqno - base >= (long) words.length * 64) {
            return false;
        }
        return (words[wordIndex(seqno)] & (1L << seqno)) != 0;
    }

    /** True if {@code seqno} is at or beyond {@code base + maxWindow}: resolving it slides the window. */
    public boolean beyondWindow(long seqno) {
        return seqno - base >= maxWindow;
    }

    /** Most seqnos one packet may reveal above the highest known one before the window restarts there. */
    public long maxJump() {
        return (long) maxWindow * MAX_JUMP_WINDOWS;
    }

    /** True if {@code seqno} lies more than {@link #maxJump()} above every seqno known so far. */
    public boolean isJump(long seqno) {
        return seqno - Math.max(highest, base - 1) > maxJump();
    }

    /**
     * Forgets everything below {@code seqno} and starts tracking there, as for a stream first seen at
     * {@code seqno}. The caller counts it: what lay between is neither delivered nor reported by this window.
     */
    public void restartAt(long seqno) {
        java.util.Arrays.fill(words, 0);
        base = seqno;
        highest = seqno - 1;
    }

    /**
     * Notes that every seqno up to {@code last} exists and returns the first one this reveals: the caller walks
     * {@code [returned, last]} and treats each seqno not {@link #isResolved} as a newly discovered loss (a sequence
     * gap, or an id named by a repair, request or session). The range is empty when nothing new is revealed.
     */
    public long revealUpTo(long last) {
        long from = Math.max(highest + 1, base);
        observe(last);
        return from;
    }

    /** Notes that {@code seqno} exists; returns the previous highest (so the caller can walk a gap). */
    public long observe(long seqno) {
        long previous = highest;
        if (seqno > highest) {
            highest = seqno;
        }
        return previous;
    }

    /**
     * Marks {@code seqno} resolved. Below the base it is resolved already; beyond {@code base + maxWindow} the base
     * first slides up to {@code seqno - maxWindow + 1}.
     */
    public void resolve(long seqno) {
        if (seqno < base) {
            return;
        }
        if (beyondWindow(seqno)) {
            slideTo(seqno - maxWindow + 1);
        }
        ensureCapacity(seqno);
        words[wordIndex(seqno)] |= 1L << seqno;
        observe(seqno);
        while (isSetInRing(base)) {
            words[wordIndex(base)] &= ~(1L << base);
            base++;
        }
    }

    /** Moves the base up to {@code newBase}, dropping the ring's bits below it; then past what is resolved. */
    private void slideTo(long newBase) {
        if (newBase - base >= (long) words.length * 64) {
            java.util.Arrays.fill(words, 0);
            base = newBase;
        } else {
            for (; base < newBase; base++) {
                words[wordIndex(base)] &= ~(1L << base);
            }
        }
        while (isSetInRing(base)) {
            words[wordIndex(base)] &= ~(1L << base);
            base++;
        }
    }

    private boolean isSetInRing(long seqno) {
        return (words[wordIndex(seqno)] & (1L << seqno)) != 0;
    }

    private int wordIndex(long seqno) {
        return (int) ((seqno >>> 6) & (words.length - 1));
    }

    private void ensureCapacity(long seqno) {
        // The ring must cover [base, seqno]: the words from base's word to seqno's word, inclusive.
        long span = (seqno >>> 6) - (base >>> 6) + 1;
        if (span <= words.length) {
            return;
        }
        int size = words.length;
        while (size < span) {
            size <<= 1;
        }
        long[] grown = new long[size];
        for (long w = base >>> 6, end = (base >>> 6) + words.length; w < end; w++) {
            grown[(int) (w & (size - 1))] = words[(int) (w & (words.length - 1))];
        }
        words = grown;
    }

    /** Bytes used by the bit ring. */
    public int memoryBytes() {
        return words.length * 8;
    }
}
