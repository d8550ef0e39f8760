package io.ricochet.pbcast;

/**
 * Walks the messages of one stream that a digest lists and this member lacks, most recent (highest seqno) first,
 * each at most once even if the digest's runs overlap.
 */
final class MissingCursor {
    private final ReceiveStream stream;
    private final Receiver receiver;
    private long[] lows = new long[4];
    private long[] highs = new long[4];
    private int count;
    private int next;
    private long ceiling = Long.MAX_VALUE;

    MissingCursor(ReceiveStream stream, Receiver receiver) {
        this.stream = stream;
        this.receiver = receiver;
    }

    /** Adds the run {@code low..high}; keeps runs sorted by descending high end. */
    void add(long low, long high) {
        if (count == lows.length) {
            lows = java.util.Arrays.copyOf(lows, count * 2);
            highs = java.util.Arrays.copyOf(highs, count * 2);
        }
        int i = count++;
        while (i > 0 && highs[i - 1] < high) {
            lows[i] = lows[i - 1];
            highs[i] = highs[i - 1];
            i--;
        }
        lows[i] = low;
        highs[i] = high;
    }

    ReceiveStream stream() {
        return stream;
    }

    /** The next lacking seqno, descending; -1 when there is none left. */
    long next() {
        while (next < count) {
            long seqno = Math.min(highs[next], ceiling);
            long low = Math.max(lows[next], stream.window.base());
            for (; seqno >= low; seqno--) {
                if (receiver.lacks(stream, seqno)) {
                    ceiling = seqno - 1;
                    return seqno;
                }
            }
            next++;
        }
        return -1;
    }
}
