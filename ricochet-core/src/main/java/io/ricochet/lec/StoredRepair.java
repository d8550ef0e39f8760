package io.ricochet.lec;

import io.ricochet.engine.PacketId;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.RepairFlyweight;

/**
 * A repair reduced to its missing packets: every packet of it this node has was XOR-ed out, so the payload is the
 * XOR of exactly the ids left in it. One missing id left means that id is the payload.
 */
final class StoredRepair {
    final PacketId[] ids = new PacketId[RepairFlyweight.MAX_ENTRIES];
    final int[] lengths = new int[RepairFlyweight.MAX_ENTRIES];
    /** The origin's seal of each missing id, {@code sealLength} bytes each, in the order of {@link #ids}. */
    final byte[] seals;
    final int sealLength;
    final byte[] xor;
    int count;
    int xorLength;
    boolean live;
    StoredRepair older;
    StoredRepair newer;

    StoredRepair(int maxPayload, int sealLength) {
        xor = new byte[maxPayload];
        this.sealLength = sealLength;
        seals = new byte[RepairFlyweight.MAX_ENTRIES * sealLength];
    }

    /** Where the seal of missing id {@code i} starts in {@link #seals}. */
    int sealOffset(int i) {
        return i * sealLength;
    }

    void clear() {
        java.util.Arrays.fill(xor, 0, xorLength, (byte) 0);
        java.util.Arrays.fill(ids, 0, count, null);
        count = 0;
        xorLength = 0;
    }

    void addMissing(PacketId id, int length, byte[] seal, int sealOffset) {
        ids[count] = id;
        lengths[count] = length;
        System.arraycopy(seal, sealOffset, seals, sealOffset(count), sealLength);
        count++;
    }

    int indexOf(PacketId id) {
        for (int i = 0; i < count; i++) {
            if (ids[i].equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** XORs out a packet that became available and drops it from the missing list. */
    void reduce(int index, byte[] payload, int offset, int length) {
        Bytes.xorInto(xor, 0, payload, offset, Math.min(length, xorLength));
        count--;
        ids[index] = ids[count];
        lengths[index] = lengths[count];
        System.arraycopy(seals, sealOffset(count), seals, sealOffset(index), sealLength);
        ids[count] = null;
    }

    void copyFrom(StoredRepair other) {
        clear();
        System.arraycopy(other.ids, 0, ids, 0, other.count);
        System.arraycopy(other.lengths, 0, lengths, 0, other.count);
        System.arraycopy(other.seals, 0, seals, 0, other.count * sealLength);
        System.arraycopy(other.xor, 0, xor, 0, other.xorLength);
        count = other.count;
        xorLength = other.xorLength;
    }
}
