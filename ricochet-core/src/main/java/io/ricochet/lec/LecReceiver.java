package io.ricochet.lec;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.RepairFlyweight;
import java.util.ArrayDeque;
import java.util.List;

/**
 * Receiving repairs (paper, sections 4 and 4.2.8). A repair is first reduced: the payload of every packet of it
 * this node has is XOR-ed out. Then:
 * <ul>
 *   <li>no packet missing: useless;</li>
 *   <li>one missing: that packet is the remaining payload;</li>
 *   <li>more: it is XOR-ed with a buffered repair whose missing set differs from its own by exactly one packet,
 *       recovering that packet, and tried again; failing that, it is buffered.</li>
 * </ul>
 * Every packet that becomes available (received, or recovered by any means) is XOR-ed out of the buffered repairs
 * waiting on it; those left with one missing packet recover it, in a loop rather than by recursion.
 */
public final class LecReceiver {
    private final Counters counters;
    private final PacketSource source;
    private final RepairBuffer buffer;
    private final StoredRepair work;
    private final byte[] scratch;
    private final int sealLength;
    private final byte[] sealScratch;
    private final ArrayDeque<StoredRepair> ready = new ArrayDeque<>();
    /** What {@link PacketSource#lookup} said of each entry of the repair being reduced. */
    private final int[] states = new int[RepairFlyweight.MAX_ENTRIES];
    private boolean draining;

    /** @param sealLength bytes of the origin's seal every repair entry must carry (0: none) */
    public LecReceiver(int bufferCapacity, int maxPayload, int sealLength, Counters counters, PacketSource source) {
        this.counters = counters;
        this.source = source;
        this.buffer = new RepairBuffer(bufferCapacity, maxPayload, sealLength, counters);
        this.work = new StoredRepair(maxPayload, sealLength);
        this.scratch = new byte[maxPayload];
        this.sealLength = sealLength;
        this.sealScratch = new byte[sealLength];
    }

    /** Handles one validated repair frame. */
    public void onRepair(RepairFlyweight repair, long nowNs) {
        counters.increment(LecCounter.REPAIRS_RECEIVED);
        if (repair.sealLength() != sealLength || hasDuplicateEntries(repair)
                || repair.payloadLength() > work.xor.length) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (!reduce(repair, nowNs)) {
            return;
        }
        resolve(nowNs);
        drainReady(nowNs);
    }

    private static boolean hasDuplicateEntries(RepairFlyweight repair) {
        int count = repair.count();
        for (int i = 0; i < count; i++) {
            for (int j = i + 1; j < count; j++) {
                if (repair.entrySeqno(i) == repair.entrySeqno(j) && repair.entryGroup(i) == repair.entryGroup(j)
                        && repair.entryOrigin(i) == repair.entryOrigin(j)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Loads the repair into {@code work}, XOR-ing out every packet available here. False if it is unusable, or
     * useless: every packet of it is here already, which is decided before any payload is touched (without loss,
     * that is almost every repair, and XOR-ing them out was most of a receiver's work on large payloads).
     */
    private boolean reduce(RepairFlyweight repair, long nowNs) {
        int count = repair.count();
        int missing = 0;
        for (int i = 0; i < count; i++) {
            int state = source.lookup(repair.entryOrigin(i), repair.entryGroup(i), repair.entrySeqno(i), nowNs);
            if (state == PacketSource.REJECT) {
                return false;
            }
            if (state == PacketSource.UNAVAILABLE) {
                counters.increment(LecCounter.REPAIRS_UNUSABLE);
                return false;
            }
            if (state == PacketSource.MISSING) {
                missing++;
            } else if (source.length(state) != repair.entryLength(i)) {
                counters.increment(EngineCounter.INVALID_PACKETS);
                return false;
            }
            states[i] = state;
        }
        if (missing == 0) {
            counters.increment(EngineCounter.REPAIRS_USELESS);
            return false;
        }
        work.clear();
        work.xorLength = repair.payloadLength();
        System.arraycopy(repair.buffer(), repair.payloadOffset(), work.xor, 0, work.xorLength);
        for (int i = 0; i < count; i++) {
            int length = repair.entryLength(i);
            if (states[i] == PacketSource.MISSING) {
                PacketId id = new PacketId(repair.entryOrigin(i), repair.entryGroup(i), repair.entrySeqno(i));
                work.addMissing(id, length, repair.buffer(), repair.entrySealOffset(i));
                continue;
            }
            Bytes.xorInto(work.xor, 0, source.payload(states[i]), source.offset(states[i]), length);
            counters.increment(LecCounter.RECOVERY_XORS);
        }
        return true;
    }

    private void resolve(long nowNs) {
        boolean recoveredAny = false;
        // Each round recovers one distinct missing packet, so 2 * MAX_ENTRIES rounds bound the loop.
        for (int round = 0; round < 2 * RepairFlyweight.MAX_ENTRIES; round++) {
            if (work.count == 0) {
                if (!recoveredAny) {
                    counters.increment(EngineCounter.REPAIRS_USELESS);
                }
                return;
            }
            if (work.count == 1) {
                source.recovered(work.ids[0], work.xor, 0, work.lengths[0], work.seals, 0, false, nowNs);
                return;
            }
            StoredRepair partner = findPartner();
            if (partner == null) {
                buffer.store(work);
                return;
            }
            PacketId id = combine(partner);
            recoveredAny = true;
            int index = work.indexOf(id);
            StoredRepair holder = index >= 0 ? work : partner;
            int at = holder.indexOf(id);
            int length = holder.lengths[at];
            source.recovered(id, scratch, 0, length, holder.seals, holder.sealOffset(at), true, nowNs);
            if (index >= 0) {
                work.reduce(index, scratch, 0, length);
            }
        }
        buffer.store(work);
    }

    /** A buffered repair whose missing set differs from work's by exactly one packet, or null. */
    private StoredRepair findPartner() {
        for (int i = 0; i < work.count; i++) {
            List<StoredRepair> candidates = buffer.waitingOn(work.ids[i]);
            for (int k = 0; k < candidates.size(); k++) {
                StoredRepair other = candidates.get(k);
                if (other.live && differingId(work, other) != null) {
                    return other;
                }
            }
        }
        return null;
    }

    /** The single id in exactly one of the two missing sets, or null if there are zero or several. */
    private static PacketId differingId(StoredRepair a, StoredRepair b) {
        PacketId found = null;
        for (int i = 0; i < a.count; i++) {
            if (b.indexOf(a.ids[i]) < 0) {
                if (found != null) {
                    return null;
                }
                found = a.ids[i];
            }
        }
        for (int i = 0; i < b.count; i++) {
            if (a.indexOf(b.ids[i]) < 0) {
                if (found != null) {
                    return null;
                }
                found = b.ids[i];
            }
        }
        return found;
    }

    /** XORs work with partner into scratch; returns the packet that XOR is. */
    private PacketId combine(StoredRepair partner) {
        PacketId id = differingId(work, partner);
        int length = Math.max(work.xorLength, partner.xorLength);
        System.arraycopy(work.xor, 0, scratch, 0, length);
        Bytes.xorInto(scratch, 0, partner.xor, 0, partner.xorLength);
        counters.increment(LecCounter.RECOVERY_XORS);
        return id;
    }

    /**
     * A packet became available here (received or recovered): XOR it out of buffered repairs. The engine calls
     * this for every packet it delivers, then {@link #drainReady} once its own work is done.
     */
    public void onAvailable(PacketId id, byte[] payload, int offset, int length) {
        buffer.onAvailable(id, payload, offset, length, ready);
    }

    /** Recovers from buffered repairs left with one missing packet, until none is left. */
    public void drainReady(long nowNs) {
        if (draining) {
            return;
        }
        draining = true;
        try {
            for (StoredRepair repair = ready.poll(); repair != null; repair = ready.poll()) {
                if (!repair.live || repair.count != 1) {
                    continue;
                }
                PacketId id = repair.ids[0];
                int length = repair.lengths[0];
                System.arraycopy(repair.xor, 0, scratch, 0, length);
                System.arraycopy(repair.seals, 0, sealScratch, 0, sealLength);
                buffer.release(repair);
                source.recovered(id, scratch, 0, length, sealScratch, 0, false, nowNs);
            }
        } finally {
            draining = false;
        }
    }

    /**
     * The sender of (origin, group) restarted: its old packet ids will be reused by the new incarnation, so buffered
     * repairs naming them must never be combined with the new packets.
     */
    public void forgetStream(int origin, int group) {
        buffer.releaseStream(origin, group);
    }

    /** Repairs buffered now. */
    public int bufferedRepairs() {
        return buffer.size();
    }

    public long memoryBytes() {
        return buffer.memoryBytes();
    }
}
