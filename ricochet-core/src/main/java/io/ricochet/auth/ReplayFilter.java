package io.ricochet.auth;

import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses authentic datagrams that were sealed too long ago, or whose counter was already taken (docs/design/
 * security.md, "Replays"). {@link DatagramAuth#open} asks it only after the tag verified, so bytes without the key
 * create no state here.
 *
 * <p><b>Freshness.</b> A counter whose time ({@link DatagramClock#sentMs}) is more than {@code maxClockSkewMs} away
 * from this host's wall clock, in either direction, is {@link DatagramAuth#STALE}: dropped, never recorded, and
 * logged at WARN at most once a minute per (source, frame type).
 *
 * <p><b>Window.</b> Per key, the {@link #DEFAULT_WINDOW} largest counters taken so far, kept sorted in a ring, and
 * the floor: the largest counter pushed out of them. A counter at or below the floor, or equal to one kept, is
 * {@link DatagramAuth#REPLAYED}; any other fresh counter is taken. A sender's counters are sparse (one clock serves
 * every destination and jumps 2<sup>20</sup> per idle millisecond), so the window remembers counter values, not a
 * bitmap of a range: a datagram overtaken by fewer than {@code window} newer ones of the same key is still taken,
 * however far apart in time they were sent. That is what the daemon needs: its sockets (the unicast one and one per
 * group) are read in turns, so a datagram read late from one socket may be overtaken by hundreds from another.
 *
 * <p><b>Streams.</b> DATA is keyed by its group as well ({@link #checkStream}): a sender's counters are shared by all
 * its groups, and each group arrives on a socket of its own, so with many groups a DATA frame read late from one
 * socket can be overtaken by thousands from the others (a daemon in 64 groups at 150 000 datagrams/s refused
 * hundreds of thousands of genuine ones as replays when one window served all of them; docs/results.md, "150
 * 000 datagrams/s"). Within one group a sender's DATA arrives in the order sent, so a stream's window is short
 * ({@value #DEFAULT_STREAM_WINDOW} counters, 1 KiB). The group is covered by the tag like the rest of the frame, so a
 * replay meets the same window whichever socket it is sent to.
 *
 * <p><b>Keys.</b> A window is keyed by the frame header's Source Node Id and the frame type, both covered by the
 * tag. The frame type keeps the two id namespaces apart: daemons are numbered by node id and detectors by
 * {@code name.hashCode()}, which may collide, but detectors alone send HEARTBEAT; a HEARTBEAT_ACK is acted on only
 * if its source is one of the receiving detector's targets, whose ids {@code FdConfig} requires to be distinct; and
 * daemons alone send the data path's frames. So one window never mixes the counters of two processes whose
 * datagrams count.
 *
 * <p><b>Bound.</b> At most {@code maxWindows} windows (default {@value #DEFAULT_MAX_WINDOWS}); a new key evicts
 * the least recently used one and reuses its memory (or replaces it, when a stream's window follows a frame type's).
 * A window is {@code window} longs (8 KiB by default), a stream's {@code streamWindow} (1 KiB), allocated when its
 * key first takes a counter, so the table holds at most 64 MiB, and only key holders can fill it; a daemon in 64
 * groups of 8 senders holds about 0.5 MiB of stream windows. A key
 * evicted and seen again starts empty: a datagram of it that was already taken is then accepted once more if it is
 * still fresh, as after a restart.
 *
 * <p>Thread-safe: one instance per process is shared by every guard that opens datagrams (the daemon's engine loop
 * and its heartbeat thread), so a datagram replayed to another socket of the same process meets the same window.
 * After the table is full, {@link #check} allocates nothing.
 */
public final class ReplayFilter {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayFilter.class);

    /** Counters remembered per (source, frame type). */
    public static final int DEFAULT_WINDOW = 1024;
    /** Counters remembered per (source, group) of DATA, which arrives in the order sent. */
    public static final int DEFAULT_STREAM_WINDOW = 128;
    /** Windows kept at most; the least recently used is evicted beyond. */
    public static final int DEFAULT_MAX_WINDOWS = 8192;
    /** Marks a key of {@link #checkStream}: above the 40 bits of source id and frame type. */
    private static final long STREAM_KEY = 1L << 40;
    /** How far a datagram's send time may be from the receiver's clock, by default. */
    public static final long DEFAULT_MAX_CLOCK_SKEW_MS = 30_000;
    /** At most one stale warning per (source, frame type) in this long. */
    static final long WARN_INTERVAL_MS = 60_000;
    private static final int NONE = -1;

    private final long maxClockSkewMs;
    private final LongSupplier wallClockMs;
    private final int window;
    private final int streamWindow;
    private final int maxWindows;

    // Open-addressing table (linear probing) from key to window index + 1; 0 is an empty slot.
    private final int[] table;
    private final int tableMask;
    private final int tableShift;

    // Per window index.
    private final long[] keyOf;
    private final int[] groupOf;
    private final long[][] counters;
    private final int[] head;
    private final int[] size;
    private final long[] floor;
    private final long[] warnedMs;
    private final int[] newer;
    private final int[] older;
    private int used;
    private int newest = NONE;
    private int oldest = NONE;

    /** The default window and bound, with {@code maxClockSkewMs} on {@code wallClockMs}. */
    public ReplayFilter(long maxClockSkewMs, LongSupplier wallClockMs) {
        this(maxClockSkewMs, wallClockMs, DEFAULT_WINDOW, DEFAULT_MAX_WINDOWS);
    }

    /** A stream's window is the smaller of {@code window} and {@link #DEFAULT_STREAM_WINDOW}. */
    public ReplayFilter(long maxClockSkewMs, LongSupplier wallClockMs, int window, int maxWindows) {
        this(maxClockSkewMs, wallClockMs, window, Math.min(window, DEFAULT_STREAM_WINDOW), maxWindows);
    }

    /**
     * @param maxClockSkewMs how far (ms) a counter's time may be from {@code wallClockMs}, either way
     * @param wallClockMs    this host's wall clock, ms since the epoch
     * @param window         counters remembered per (source, frame type), a power of two
     * @param streamWindow   counters remembered per (source, group) of DATA, a power of two
     * @param maxWindows     keys remembered at most
     */
    public ReplayFilter(long maxClockSkewMs, LongSupplier wallClockMs, int window, int streamWindow,
                        int maxWindows) {
        if (maxClockSkewMs < 1) {
            throw new IllegalArgumentException("max clock skew must be at least 1 ms: " + maxClockSkewMs);
        }
        if (window < 2 || Integer.bitCount(window) != 1) {
            throw new IllegalArgumentException("window must be a power of two, at least 2: " + window);
        }
        if (streamWindow < 2 || Integer.bitCount(streamWindow) != 1) {
            throw new IllegalArgumentException("stream window must be a power of two, at least 2: " + streamWindow);
        }
        if (maxWindows < 1 || maxWindows > 1 << 20) {
            throw new IllegalArgumentException("max windows must be in 1..2^20: " + maxWindows);
        }
        this.maxClockSkewMs = maxClockSkewMs;
        this.wallClockMs = wallClockMs;
        this.window = window;
        this.streamWindow = streamWindow;
        this.maxWindows = maxWindows;
        int slots = Integer.highestOneBit(maxWindows) << 2;
        this.table = new int[slots];
        this.tableMask = slots - 1;
        this.tableShift = 64 - Integer.numberOfTrailingZeros(slots);
        this.keyOf = new long[maxWindows];
        this.groupOf = new int[maxWindows];
        this.counters = new long[maxWindows][];
        this.head = new int[maxWindows];
        this.size = new int[maxWindows];
        this.floor = new long[maxWindows];
        this.warnedMs = new long[maxWindows];
        this.newer = new int[maxWindows];
        this.older = new int[maxWindows];
    }

    public long maxClockSkewMs() {
        return maxClockSkewMs;
    }

    /**
     * Takes {@code counter} of an authentic datagram from {@code source} of frame type {@code type}: 0 if it is
     * fresh and new (now recorded), else {@link DatagramAuth#STALE} or {@link DatagramAuth#REPLAYED}.
     */
    public synchronized int check(int source, int type, long counter) {
        return check(source, type, (source & 0xFFFF_FFFFL) << 8 | (type & 0xFF), 0, counter);
    }

    /**
     * As {@link #check}, for a frame of a sender's stream in {@code group} (DATA): the counter is kept in the window of
     * (source, type, group), so frames of the sender's other groups, read from other sockets, do not overtake it.
     */
    public synchronized int checkStream(int source, int type, int group, long counter) {
        return check(source, type, STREAM_KEY | (source & 0xFFFF_FFFFL) << 8 | (type & 0xFF), group, counter);
    }

    private int check(int source, int type, long key, int group, long counter) {
        long nowMs = wallClockMs.getAsLong();
        long skewMs = DatagramClock.sentMs(counter) - nowMs;
        int w = windowOf(key, group);
        if (skewMs > maxClockSkewMs || skewMs < -maxClockSkewMs) {
            if (nowMs - warnedMs[w] >= WARN_INTERVAL_MS) {
                warnedMs[w] = nowMs;
                LOG.warn("dropping datagrams from source {} (frame type {}) as stale: sent {} ms {} this host's "
                                + "clock, beyond max-clock-skew {} ms; check NTP on both hosts", source, type,
                        Math.abs(skewMs), skewMs > 0 ? "ahead of" : "behind", maxClockSkewMs);
            }
            return DatagramAuth.STALE;
        }
        return take(w, counter) ? 0 : DatagramAuth.REPLAYED;
    }

    /** Windows in use (at most the bound). */
    public synchronized int windows() {
        return used;
    }

    /** Records {@code c} in window {@code w}; false if it was there already or is at or below the floor. */
    private boolean take(int w, long c) {
        if (c <= floor[w]) {
            return false;
        }
        long[] v = counters[w];
        int capacity = (keyOf[w] & STREAM_KEY) != 0 ? streamWindow : window;
        if (v == null || v.length != capacity) {
            v = new long[capacity];
            counters[w] = v;
        }
        int windowMask = capacity - 1;
        int h = head[w];
        int n = size[w];
        if (n == 0 || c > v[(h + n - 1) & windowMask]) {
            // The usual case: newer than everything kept.
            if (n == capacity) {
                floor[w] = v[h];
                v[h] = c;
                head[w] = (h + 1) & windowMask;
            } else {
                v[(h + n) & windowMask] = c;
                size[w] = n + 1;
            }
            return true;
        }
        // Overtaken: find the first kept counter >= c (the last one is).
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (v[(h + mid) & windowMask] < c) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (v[(h + lo) & windowMask] == c) {
            return false;
        }
        if (n == capacity) {
            if (lo == 0) {
                // Smaller than every counter kept: it would be pushed out at once, so it becomes the floor.
                floor[w] = c;
                return true;
            }
            // Push out the smallest, move the ones below c down by one, and put c just below position lo.
            floor[w] = v[h];
            for (int i = 0; i < lo - 1; i++) {
                v[(h + i) & windowMask] = v[(h + i + 1) & windowMask];
            }
            v[(h + lo - 1) & windowMask] = c;
        } else {
            for (int i = n; i > lo; i--) {
                v[(h + i) & windowMask] = v[(h + i - 1) & windowMask];
            }
            v[(h + lo) & windowMask] = c;
            size[w] = n + 1;
        }
        return true;
    }

    /**
     * The window of ({@code key}, {@code group}), made most recently used; a new one (evicting the least recently
     * used) if none.
     */
    private int windowOf(long key, int group) {
        int slot = home(key, group);
        while (table[slot] != 0) {
            int w = table[slot] - 1;
            if (keyOf[w] == key && groupOf[w] == group) {
                touch(w);
                return w;
            }
            slot = (slot + 1) & tableMask;
        }
        int w;
        if (used < maxWindows) {
            w = used++;
        } else {
            w = oldest;
            remove(w);
            unlink(w);
            slot = home(key, group);
            while (table[slot] != 0) {
                slot = (slot + 1) & tableMask;
            }
        }
        table[slot] = w + 1;
        keyOf[w] = key;
        groupOf[w] = group;
        head[w] = 0;
        size[w] = 0;
        floor[w] = Long.MIN_VALUE;
        warnedMs[w] = Long.MIN_VALUE / 2;
        linkNewest(w);
        return w;
    }

    private int home(long key, int group) {
        return (int) (((key ^ (group & 0xFFFF_FFFFL) * 0xC2B2_AE3D_27D4_EB4FL) * 0x9E37_79B9_7F4A_7C15L)
                >>> tableShift) & tableMask;
    }

    private int home(int w) {
        return home(keyOf[w], groupOf[w]);
    }

    /** Removes window {@code w} from the table, shifting later entries of its probe run back (no tombstones). */
    private void remove(int w) {
        int i = home(w);
        while (table[i] - 1 != w) {
            i = (i + 1) & tableMask;
        }
        table[i] = 0;
        int j = i;
        while (true) {
            j = (j + 1) & tableMask;
            if (table[j] == 0) {
                return;
            }
            int k = home(table[j] - 1);
            // Entry j may move to the hole at i unless its home k lies cyclically in (i, j].
            boolean stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (!stays) {
                table[i] = table[j];
                table[j] = 0;
                i = j;
            }
        }
    }

    private void touch(int w) {
        if (w != newest) {
            unlink(w);
            linkNewest(w);
        }
    }

    private void linkNewest(int w) {
        older[w] = newest;
        newer[w] = NONE;
        if (newest != NONE) {
            newer[newest] = w;
        }
        newest = w;
        if (oldest == NONE) {
            oldest = w;
        }
    }

    private void unlink(int w) {
        if (newer[w] != NONE) {
            older[newer[w]] = older[w];
        } else {
            newest = older[w];
        }
        if (older[w] != NONE) {
            newer[older[w]] = newer[w];
        } else {
            oldest = newer[w];
        }
    }
}
