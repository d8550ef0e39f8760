package io.ricochet.fountain.backup;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fountain backup's trigger (docs/design/fountain.md, section 6): per (requester, group), the run of consecutive
 * seqnos the requester has just NAKed. A receiver NAKs the packets of one gap in seqno order, so a run longer than
 * LEC repairs (stagger x r) is a burst LEC could not have fixed. At most {@link #MAX_RUNS} runs are kept; the least
 * recently extended one is forgotten beyond.
 */
public final class NakRuns {
    /** Runs tracked at once. */
    public static final int MAX_RUNS = 4096;

    private final int threshold;
    private final Map<Long, long[]> runs = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, long[]> eldest) {
            return size() > MAX_RUNS;
        }
    };

    /** @param threshold a run of more than this many NAKed seqnos triggers (stagger x r) */
    public NakRuns(int threshold) {
        this.threshold = threshold;
    }

    /**
     * Notes a NAK; true if it makes its requester's run in the group longer than the threshold (the run then starts
     * again, so the next trigger needs another whole run).
     */
    public boolean nak(int requester, int group, long seqno) {
        long key = ((long) requester << 32) | (group & 0xFFFFFFFFL);
        long[] run = runs.get(key);
        if (run == null) {
            runs.put(key, new long[] {seqno, 1});
            return threshold == 0;
        }
        if (seqno == run[0] + 1) {
            run[0] = seqno;
            run[1]++;
        } else {
            run[0] = seqno;
            run[1] = 1;
        }
        if (run[1] > threshold) {
            runs.remove(key);
            return true;
        }
        return false;
    }

    public int size() {
        return runs.size();
    }
}
