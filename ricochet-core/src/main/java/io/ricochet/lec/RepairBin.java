package io.ricochet.lec;

import io.ricochet.wire.Bytes;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One logical repair bin (paper, section 4.2.1): it takes every data packet of the groups in its label, and every
 * r packets emits one repair to targets drawn from its regions. With stagger i it is i instances fed round-robin
 * (4.2.2), so packets in one repair are i apart in arrival order.
 *
 * <p>The number of destinations of an instance's next repair is drawn when the instance starts filling
 * (4.2.5): a fractional mean m becomes floor(m) or ceil(m) at random, keeping the mean. Only an instance whose
 * draw is above zero XORs payloads in; the others just count packets. So a data packet costs at most c two-input
 * XORs on average.
 */
final class RepairBin {
    private final GroupSet label;
    private final Instance[] instances;
    private final int r;
    private List<RepairPlan.Target> targets;
    private int nextInstance;

    RepairBin(GroupSet label, int r, int stagger, int maxPayload, int sealLength, List<RepairPlan.Target> targets,
              RandomGenerator rng) {
        this.label = label;
        this.r = r;
        this.targets = targets;
        this.instances = new Instance[stagger];
        for (int i = 0; i < stagger; i++) {
            instances[i] = new Instance(r, maxPayload, sealLength);
            instances[i].draw(targets, rng);
        }
    }

    GroupSet label() {
        return label;
    }

    List<RepairPlan.Target> targets() {
        return targets;
    }

    /**
     * After a membership change: new targets. A partly filled instance keeps its packets; if it was building a
     * payload it draws again against the new targets, otherwise it stays silent until it restarts.
     */
    void retarget(List<RepairPlan.Target> newTargets, RandomGenerator rng) {
        this.targets = newTargets;
        for (Instance instance : instances) {
            if (instance.count == 0 || instance.carriesPayload) {
                instance.draw(newTargets, rng);
                instance.carriesPayload |= instance.count > 0;
            } else {
                Arrays.fill(instance.drawn, 0, instance.drawn.length, 0);
                instance.drawnTotal = 0;
            }
        }
    }

    /**
     * Adds a packet to the next instance. Returns that instance if it just filled and should be emitted
     * (the caller sends it, then calls {@link Instance#reset}); null otherwise. {@code xors[0]} counts XORs.
     */
    Instance add(int origin, int group, long seqno, byte[] payload, int offset, int length, byte[] seal,
                 int sealOffset, long[] xors) {
        Instance instance = instances[nextInstance];
        nextInstance = nextInstance + 1 == instances.length ? 0 : nextInstance + 1;
        instance.add(origin, group, seqno, payload, offset, length, seal, sealOffset, xors);
        return instance.count == r ? instance : null;
    }

    /** Payload bytes held by this bin's instances. */
    long memoryBytes() {
        long sum = 0;
        for (Instance instance : instances) {
            sum += instance.xor.length + instance.seals.length;
        }
        return sum;
    }

    /** One bin instance: the running XOR and the ids of the packets in it. */
    static final class Instance {
        final int[] origins;
        final int[] groups;
        final long[] seqnos;
        final int[] lengths;
        /** The origin's seal of each packet, {@code sealLength} bytes each (none when 0). */
        final byte[] seals;
        final int sealLength;
        final byte[] xor;
        int count;
        int xorLength;
        int[] drawn = new int[0];
        int drawnTotal;
        boolean carriesPayload;

        Instance(int r, int maxPayload, int sealLength) {
            this.sealLength = sealLength;
            seals = new byte[r * sealLength];
            origins = new int[r];
            groups = new int[r];
            seqnos = new long[r];
            lengths = new int[r];
            xor = new byte[maxPayload];
        }

        void add(int origin, int group, long seqno, byte[] payload, int offset, int length, byte[] seal,
                 int sealOffset, long[] xors) {
            origins[count] = origin;
            groups[count] = group;
            seqnos[count] = seqno;
            lengths[count] = length;
            System.arraycopy(seal, sealOffset, seals, count * sealLength, sealLength);
            count++;
            if (!carriesPayload) {
                return;
            }
            if (xorLength == 0) {
                // The first payload of a repair is copied, not XOR-ed: r packets take r - 1 two-input XORs.
                System.arraycopy(payload, offset, xor, 0, length);
            } else {
                Bytes.xorInto(xor, 0, payload, offset, length);
                xors[0]++;
            }
            xorLength = Math.max(xorLength, length);
        }

        void draw(List<RepairPlan.Target> targets, RandomGenerator rng) {
            if (drawn.length != targets.size()) {
                drawn = new int[targets.size()];
            }
            drawnTotal = 0;
            for (int i = 0; i < drawn.length; i++) {
                RepairPlan.Target t = targets.get(i);
                double mean = t.mean();
                int k = (int) mean;
                if (rng.nextDouble() < mean - k) {
                    k++;
                }
                drawn[i] = Math.min(k, t.region().size());
                drawnTotal += drawn[i];
            }
            carriesPayload = drawnTotal > 0;
        }

        /** Empties the instance after it was emitted (or discarded) and draws the next repair's targets. */
        void reset(List<RepairPlan.Target> targets, RandomGenerator rng) {
            Arrays.fill(xor, 0, xorLength, (byte) 0);
            xorLength = 0;
            count = 0;
            draw(targets, rng);
        }
    }
}
