package io.ricochet.qsm;

import io.ricochet.engine.PacketId;
import io.ricochet.nak.LossTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * This member's pending losses, in discovery order, each with the token rounds it has waited: the token carries them
 * as recovery records until a peer forwards the packet or the rounds run out. Bounded: a loss the full table
 * refuses is reported lost at once by the {@link io.ricochet.nak.LossLedger}.
 */
final class MissingTable implements LossTable {
    /** One pending loss. */
    static final class Loss {
        final PacketId id;
        final long discoveredNs;
        int rounds;

        Loss(PacketId id, long discoveredNs) {
            this.id = id;
            this.discoveredNs = discoveredNs;
        }
    }

    private final int capacity;
    private final Map<PacketId, Loss> losses = new LinkedHashMap<>();
    private final Map<Integer, Integer> perGroup = new HashMap<>();

    MissingTable(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public Outcome discover(PacketId id, long nowNs) {
        if (losses.containsKey(id)) {
            return Outcome.KNOWN;
        }
        if (losses.size() >= capacity) {
            return Outcome.FULL;
        }
        losses.put(id, new Loss(id, nowNs));
        perGroup.merge(id.group(), 1, Integer::sum);
        return Outcome.NEW;
    }

    @Override
    public boolean isPending(PacketId id) {
        return losses.containsKey(id);
    }

    Loss get(PacketId id) {
        return losses.get(id);
    }

    /** Removes {@code id}; returns the loss, or null if it was not pending. */
    Loss resolve(PacketId id) {
        Loss loss = losses.remove(id);
        if (loss != null) {
            perGroup.computeIfPresent(id.group(), (g, n) -> n == 1 ? null : n - 1);
        }
        return loss;
    }

    /** Whether any loss of {@code group} is pending. */
    boolean hasGroup(int group) {
        return perGroup.containsKey(group);
    }

    /** The pending losses of {@code group}, oldest first (a copy). */
    List<Loss> ofGroup(int group) {
        List<Loss> out = new ArrayList<>();
        if (hasGroup(group)) {
            for (Loss loss : losses.values()) {
                if (loss.id.group() == group) {
                    out.add(loss);
                }
            }
        }
        return out;
    }

    /** The oldest pending seqno of the stream (origin, group), or {@link Long#MAX_VALUE}. */
    long oldest(int origin, int group) {
        long oldest = Long.MAX_VALUE;
        if (hasGroup(group)) {
            for (PacketId id : losses.keySet()) {
                if (id.origin() == origin && id.group() == group) {
                    oldest = Math.min(oldest, id.seqno());
                }
            }
        }
        return oldest;
    }

    /** Removes and returns the pending losses of the stream (origin, group), or of every origin if origin is -1. */
    List<Loss> removeStream(int origin, int group) {
        List<Loss> out = new ArrayList<>();
        for (Loss loss : ofGroup(group)) {
            if (origin == -1 || loss.id.origin() == origin) {
                out.add(resolve(loss.id));
            }
        }
        return out;
    }

    int size() {
        return losses.size();
    }
}
