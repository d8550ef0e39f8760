package io.ricochet.lec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.wire.RepairFlyweight;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * All of a node's repair bins, set up from a {@link RepairPlan} and indexed by group, so a data packet of group G
 * is added to exactly the bins whose label contains G. Full instances are turned into repair frames and
 * unicast to their drawn targets, chosen at random without repetition inside each region.
 */
public final class RepairBins {
    private static final RepairBin[] NONE = new RepairBin[0];

    private final int self;
    private int r;
    private final int stagger;
    private final int maxPayload;
    private final int sealLength;
    private final RandomGenerator rng;
    private final Counters counters;
    private final Outbox outbox;
    private byte[] frame;
    private final RepairFlyweight repair = new RepairFlyweight();
    private final long[] xors = new long[1];
    private int[] scratch = new int[16];
    private Map<GroupSet, RepairBin> bins = new HashMap<>();
    private Map<Integer, RepairBin[]> binsByGroup = new HashMap<>();

    /**
     * @param sealLength bytes of the origin's seal each repair entry carries ({@code OriginSeals#length}; 0 for none)
     */
    public RepairBins(int self, int r, int stagger, int maxPayload, int sealLength, RandomGenerator rng,
                      Counters counters, Outbox outbox) {
        this.self = self;
        this.r = r;
        this.stagger = stagger;
        this.maxPayload = maxPayload;
        this.sealLength = sealLength;
        this.rng = rng;
        this.counters = counters;
        this.outbox = outbox;
        this.frame = new byte[RepairFlyweight.frameLength(r, maxPayload, sealLength)];
        repair.wrap(frame, 0);
    }

    /**
     * Changes r (a tuned rate-of-fire, {@code lec.tuning}); takes effect at the next {@link #apply}, which starts
     * every bin afresh: the partly built repairs are dropped, so their packets get fewer repairs, never a wrong one.
     */
    public void useR(int newR) {
        if (newR == r) {
            return;
        }
        r = newR;
        bins = new HashMap<>();
        binsByGroup = new HashMap<>();
        int length = RepairFlyweight.frameLength(r, maxPayload, sealLength);
        if (frame.length < length) {
            frame = new byte[length];
            repair.wrap(frame, 0);
        }
    }

    public int r() {
        return r;
    }

    /** Installs a new plan. Bins whose label survives keep their partly built repairs. */
    public void apply(RepairPlan plan) {
        Map<GroupSet, RepairBin> next = new HashMap<>();
        Map<Integer, List<RepairBin>> byGroup = new HashMap<>();
        for (Map.Entry<GroupSet, List<RepairPlan.Target>> e : plan.bins().entrySet()) {
            RepairBin bin = bins.get(e.getKey());
            if (bin == null) {
                bin = new RepairBin(e.getKey(), r, stagger, maxPayload, sealLength, e.getValue(), rng);
            } else {
                bin.retarget(e.getValue(), rng);
            }
            next.put(e.getKey(), bin);
            for (int i = 0; i < e.getKey().size(); i++) {
                byGroup.computeIfAbsent(e.getKey().get(i), g -> new ArrayList<>()).add(bin);
            }
        }
        Map<Integer, RepairBin[]> index = new HashMap<>();
        byGroup.forEach((g, list) -> index.put(g, list.toArray(NONE)));
        bins = next;
        binsByGroup = index;
    }

    /**
     * Feeds one received data packet to every bin of its group, emitting the repairs that fill; its origin's seal is
     * {@code seal[sealOffset..]} ({@code sealLength} bytes).
     */
    public void add(int origin, int group, long seqno, byte[] payload, int offset, int length, byte[] seal,
                    int sealOffset) {
        RepairBin[] forGroup = binsByGroup.getOrDefault(group, NONE);
        xors[0] = 0;
        for (RepairBin bin : forGroup) {
            RepairBin.Instance full = bin.add(origin, group, seqno, payload, offset, length, seal, sealOffset, xors);
            if (full != null) {
                if (full.carriesPayload && full.drawnTotal > 0) {
                    emit(bin, full);
                }
                full.reset(bin.targets(), rng);
            }
        }
        counters.add(LecCounter.BIN_XORS, xors[0]);
    }

    private void emit(RepairBin bin, RepairBin.Instance instance) {
        repair.writeStart(self, instance.count, instance.xorLength, sealLength);
        for (int i = 0; i < instance.count; i++) {
            repair.entry(i, instance.origins[i], instance.groups[i], instance.seqnos[i], instance.lengths[i])
                    .entrySeal(i, instance.seals, i * sealLength);
        }
        System.arraycopy(instance.xor, 0, frame, repair.payloadOffset(), instance.xorLength);
        int length = repair.frameLength();
        counters.increment(LecCounter.REPAIRS_BUILT);
        List<RepairPlan.Target> targets = bin.targets();
        int origin = soleOrigin(instance);
        for (int t = 0; t < instance.drawn.length; t++) {
            int k = instance.drawn[t];
            if (k == 0) {
                continue;
            }
            int[] nodes = targets.get(t).region().nodes();
            int chosen = sample(nodes, k);
            int sent = 0;
            for (int i = 0; i < chosen; i++) {
                // The node that sent every packet of the repair has them all: the copy could only be discarded there.
                // The draw is unchanged, so the targets of every other copy are those of the paper's scheme.
                if (scratch[i] == origin) {
                    counters.increment(LecCounter.REPAIRS_NOT_SENT_TO_ORIGIN);
                    continue;
                }
                outbox.unicast(scratch[i], frame, 0, length);
                sent++;
            }
            counters.add(LecCounter.REPAIRS_SENT, sent);
        }
    }

    /** The node that sent every packet of the instance, or -1 if they come from more than one. */
    private static int soleOrigin(RepairBin.Instance instance) {
        int origin = instance.origins[0];
        for (int i = 1; i < instance.count; i++) {
            if (instance.origins[i] != origin) {
                return -1;
            }
        }
        return origin;
    }

    /** Puts min(k, n) distinct random nodes in scratch[0..): a partial Fisher-Yates shuffle. */
    private int sample(int[] nodes, int k) {
        int n = nodes.length;
        if (scratch.length < n) {
            scratch = new int[Integer.highestOneBit(n) << 1];
        }
        System.arraycopy(nodes, 0, scratch, 0, n);
        int take = Math.min(k, n);
        for (int i = 0; i < take; i++) {
            int j = i + rng.nextInt(n - i);
            int tmp = scratch[i];
            scratch[i] = scratch[j];
            scratch[j] = tmp;
        }
        return take;
    }

    public int binCount() {
        return bins.size();
    }

    /** Payload bytes held by all bins. */
    public long memoryBytes() {
        long sum = 0;
        for (RepairBin bin : bins.values()) {
            sum += bin.memoryBytes();
        }
        return sum;
    }
}
