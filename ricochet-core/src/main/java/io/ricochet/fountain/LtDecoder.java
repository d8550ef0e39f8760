package io.ricochet.fountain;

import io.ricochet.wire.Bytes;
import java.util.Arrays;

/**
 * The LT peeling decoder (Luby 2002, section 3): an encoding symbol whose source symbols are all known but one
 * reveals that one, which is then XOR-ed out of every stored symbol that holds it, and so on (the "ripple"). Each
 * arriving symbol is first reduced by the source symbols already known; one left with none is redundant, one left
 * with one decodes at once, the others are stored until the ripple reaches them.
 *
 * <p>A stored symbol keeps its remaining degree and the XOR of its remaining neighbours' indices: when the degree
 * reaches one, that XOR is the neighbour, so no neighbour list is kept per symbol. Source symbols point to the stored
 * symbols that hold them through edge arrays. Every structure is allocated up front (stored symbols: a fixed pool of
 * {@code maxStored}) or grows by doubling and is then reused ({@link #reset}): nothing is allocated per symbol once
 * warm. When peeling stalls with enough symbols stored, {@link Inactivation} decoding finishes the message. Input
 * is trusted in nothing: a symbol of the wrong length is refused, a full pool refuses more (counted by the caller
 * from the return value), ids are any long.
 *
 * <p>Not thread-safe.
 */
public final class LtDecoder {
    /** {@link #receive} results. */
    public static final int STORED = 0;
    public static final int DECODED_SOME = 1;
    public static final int REDUNDANT = 2;
    public static final int COMPLETE = 3;
    public static final int WRONG_LENGTH = -1;
    public static final int POOL_FULL = -2;

    private final int k;
    private final int symbolSize;
    private final SymbolDraw draw;
    private final byte[] source;
    private final boolean[] known;
    private int knownCount;
    private long received;

    // The pool of stored symbols.
    private final byte[] pool;
    private final int[] degree;
    private final int[] neighbourXor;
    private final int[] generationOf;
    private final int[] freeSlots;
    private int freeCount;
    private final long[] slotIds;
    private final boolean[] inUse;
    private final int[] activeSlots;

    // Inactivation decoding once peeling stalls with enough symbols stored (null: peeling alone).
    private Inactivation inactivation;
    private long nextAttempt;
    private int attempts;

    // Edges: for each source symbol, a linked list of (slot, slot's generation) of stored symbols holding it.
    private final int[] edgeHead;
    private int[] edgeNext = new int[1024];
    private int[] edgeSlot = new int[1024];
    private int[] edgeGeneration = new int[1024];
    private int edges;

    private final int[] ripple;
    private int rippleHead;
    private int rippleTail;
    private final byte[] scratch;

    /**
     * @param k          source symbols (the message's {@link LtEncoder#sourceSymbols})
     * @param symbolSize bytes per symbol (0 decodes the structure alone: for measuring the code)
     * @param c          the encoder's robust soliton c
     * @param delta      its delta
     * @param seed       the encoder's seed
     * @param maxStored  encoding symbols that may wait at once (memory: maxStored x symbolSize); a symbol waits
     *                   until the ripple reaches it, so about as many as decoding needs may wait: 2k is plenty
     */
    public LtDecoder(int k, int symbolSize, double c, double delta, long seed, int maxStored) {
        if (symbolSize < 0 || maxStored < 1) {
            throw new IllegalArgumentException("symbol size " + symbolSize + ", pool of " + maxStored);
        }
        this.k = k;
        this.symbolSize = symbolSize;
        this.draw = new SymbolDraw(new RobustSoliton(k, c, delta), seed);
        this.source = new byte[Math.multiplyExact(k, symbolSize)];
        this.known = new boolean[k];
        this.pool = new byte[Math.multiplyExact(maxStored, symbolSize)];
        this.degree = new int[maxStored];
        this.neighbourXor = new int[maxStored];
        this.generationOf = new int[maxStored];
        this.freeSlots = new int[maxStored];
        this.slotIds = new long[maxStored];
        this.inUse = new boolean[maxStored];
        this.activeSlots = new int[maxStored];
        this.inactivation = new Inactivation(k, symbolSize, draw);
        this.edgeHead = new int[k];
        this.ripple = new int[k];
        this.scratch = new byte[symbolSize];
        reset();
    }

    /**
     * Whether the decoder falls back on {@link Inactivation} decoding when peeling stalls (the default) or peels
     * alone (to measure what the fallback buys).
     */
    public LtDecoder inactivation(boolean on) {
        this.inactivation = on ? new Inactivation(k, symbolSize, draw) : null;
        return this;
    }

    /** Inactivation attempts made since the last {@link #reset} (each once peeling had stalled). */
    public int attempts() {
        return attempts;
    }

    /** Forgets everything received: the decoder is as new, its memory kept. */
    public void reset() {
        Arrays.fill(known, false);
        knownCount = 0;
        received = 0;
        Arrays.fill(edgeHead, -1);
        edges = 0;
        freeCount = freeSlots.length;
        for (int i = 0; i < freeCount; i++) {
            freeSlots[i] = freeSlots.length - 1 - i;
            generationOf[i]++;
            inUse[i] = false;
        }
        nextAttempt = 0;
        attempts = 0;
        rippleHead = 0;
        rippleTail = 0;
    }

    public int k() {
        return k;
    }

    /** Whether every source symbol is known. */
    public boolean isComplete() {
        return knownCount == k;
    }

    /** Whether source symbol {@code index} is known (received, decoded or {@linkplain #know told}). */
    public boolean isKnown(int index) {
        return index >= 0 && index < k && known[index];
    }

    /**
     * Tells the decoder a source symbol it need not decode: {@code length} bytes (at most the symbol size; the rest
     * is zero) at {@code bytes[offset]}, its value. A receiver that holds some packets of a coded range says so,
     * and the symbols then go to the others: every symbol is reduced by what is known, so side information counts as
     * much as a degree-one symbol. Returns false, changing nothing, for an index out of range, one already known, or
     * a length out of bounds.
     */
    public boolean know(int index, byte[] bytes, int offset, int length) {
        if (index < 0 || index >= k || known[index] || length < 0 || length > symbolSize) {
            return false;
        }
        Arrays.fill(scratch, 0, symbolSize, (byte) 0);
        System.arraycopy(bytes, offset, scratch, 0, length);
        learn(index, scratch, 0);
        peel();
        return true;
    }

    /** Source symbols known so far. */
    public int known() {
        return knownCount;
    }

    /** Encoding symbols taken by {@link #receive} (refused ones not counted). */
    public long received() {
        return received;
    }

    /**
     * The decoded message, k x symbolSize bytes (the caller cuts it to the message's length); valid once
     * {@link #isComplete()}. Not a copy.
     */
    public byte[] message() {
        return source;
    }

    /**
     * Takes encoding symbol {@code id}, {@code length} bytes at {@code symbol[offset]}: {@link #STORED},
     * {@link #DECODED_SOME}, {@link #REDUNDANT} (it told nothing new), {@link #COMPLETE} (the message is whole, now
     * or before), {@link #WRONG_LENGTH} or {@link #POOL_FULL} (refused, nothing changed).
     */
    public int receive(long id, byte[] symbol, int offset, int length) {
        if (knownCount == k) {
            return COMPLETE;
        }
        if (length != symbolSize) {
            return WRONG_LENGTH;
        }
        int d = draw.draw(id);
        int[] neighbours = draw.neighbours();
        int remaining = 0;
        int xor = 0;
        for (int i = 0; i < d; i++) {
            if (!known[neighbours[i]]) {
                remaining++;
                xor ^= neighbours[i];
            }
        }
        if (remaining == 0) {
            received++;
            return REDUNDANT;
        }
        if (remaining > 1 && freeCount == 0) {
            return POOL_FULL;
        }
        received++;
        byte[] into;
        int at;
        int slot = -1;
        if (remaining == 1) {
            into = scratch;
            at = 0;
        } else {
            slot = freeSlots[--freeCount];
            into = pool;
            at = slot * symbolSize;
        }
        System.arraycopy(symbol, offset, into, at, symbolSize);
        for (int i = 0; i < d; i++) {
            int n = neighbours[i];
            if (known[n]) {
                Bytes.xorInto(into, at, source, n * symbolSize, symbolSize);
            }
        }
        if (remaining == 1) {
            learn(xor, scratch, 0);
            peel();
            return knownCount == k || stalled() ? COMPLETE : DECODED_SOME;
        }
        degree[slot] = remaining;
        neighbourXor[slot] = xor;
        slotIds[slot] = id;
        inUse[slot] = true;
        for (int i = 0; i < d; i++) {
            int n = neighbours[i];
            if (!known[n]) {
                addEdge(n, slot);
            }
        }
        return stalled() ? COMPLETE : STORED;
    }

    private void learn(int n, byte[] from, int at) {
        System.arraycopy(from, at, source, n * symbolSize, symbolSize);
        known[n] = true;
        knownCount++;
        ripple[rippleTail++] = n;
    }

    /** Propagates every newly known source symbol into the stored symbols that hold it. */
    private void peel() {
        while (rippleHead < rippleTail) {
            int n = ripple[rippleHead++];
            for (int e = edgeHead[n]; e != -1; e = edgeNext[e]) {
                int slot = edgeSlot[e];
                if (generationOf[slot] != edgeGeneration[e]) {
                    continue; // the slot was freed (and maybe reused) since this edge was made
                }
                int at = slot * symbolSize;
                Bytes.xorInto(pool, at, source, n * symbolSize, symbolSize);
                neighbourXor[slot] ^= n;
                if (--degree[slot] == 1) {
                    int last = neighbourXor[slot];
                    if (!known[last]) {
                        learn(last, pool, at);
                    }
                    free(slot);
                } else if (degree[slot] == 0) {
                    free(slot);
                }
            }
            edgeHead[n] = -1;
        }
        if (knownCount == k) {
            rippleHead = 0;
            rippleTail = 0;
        }
    }

    /**
     * Peeling has stopped short: tries inactivation decoding once the stored symbols are at least as many as the
     * unknowns, then again every {@code 1 + k / 500} symbols while it fails. Returns true if it finished the message.
     */
    private boolean stalled() {
        int stored = freeSlots.length - freeCount;
        if (inactivation == null || knownCount == k || stored < k - knownCount || received < nextAttempt) {
            return false;
        }
        attempts++;
        nextAttempt = received + 1 + k / 500;
        int n = 0;
        int[] inUseSlots = activeSlots;
        for (int slot = 0; slot < inUse.length; slot++) {
            if (inUse[slot]) {
                inUseSlots[n++] = slot;
            }
        }
        if (!inactivation.solve(inUseSlots, n, slotIds, pool, source, known)) {
            return false;
        }
        knownCount = k;
        for (int i = 0; i < n; i++) {
            free(inUseSlots[i]);
        }
        Arrays.fill(edgeHead, -1);
        edges = 0;
        return true;
    }

    private void free(int slot) {
        inUse[slot] = false;
        generationOf[slot]++;
        freeSlots[freeCount++] = slot;
    }

    private void addEdge(int n, int slot) {
        if (edges == edgeNext.length) {
            int size = edges * 2;
            edgeNext = Arrays.copyOf(edgeNext, size);
            edgeSlot = Arrays.copyOf(edgeSlot, size);
            edgeGeneration = Arrays.copyOf(edgeGeneration, size);
        }
        edgeNext[edges] = edgeHead[n];
        edgeSlot[edges] = slot;
        edgeGeneration[edges] = generationOf[slot];
        edgeHead[n] = edges++;
    }
}
