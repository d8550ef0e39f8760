package io.ricochet.latency;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import java.util.EnumMap;
import java.util.Map;

/**
 * Recovery latency as the paper measures it (section 5), kept the same way by both drivers: from the time an
 * injected loss dropped a data packet at a receiver (so the time it would have arrived) to the time the engine
 * found it missing, and to the time it was delivered after all, split by how (LEC or NAK). For the daemon, whose
 * losses are not all injected, it also measures from discovery to recovery.
 *
 * <p>Times are kept per (receiver, packet) in bounded tables: the oldest entry goes first, so a receiver that
 * never recovers its losses costs bounded memory.
 */
public final class RecoveryLatencies {
    private record Key(int receiver, PacketId id) {
    }

    private final BoundedTimes<Key> dropTimes;
    private final BoundedTimes<Key> discoveryTimes;
    private final LatencyStats recovery = new LatencyStats();
    private final LatencyStats lec = new LatencyStats();
    private final LatencyStats nak = new LatencyStats();
    private final LatencyStats late = new LatencyStats();
    private final LatencyStats fountain = new LatencyStats();
    private final LatencyStats discovery = new LatencyStats();
    private final LatencyStats sinceDiscovery = new LatencyStats();
    /** {@link #sinceDiscovery} split by how the loss came back (a daemon's metrics label them). */
    private final Map<Delivery, LatencyStats> sinceDiscoveryBy = new EnumMap<>(Delivery.class);

    /**
     * @param capacity           drop times (and discovery times) kept at once
     * @param timeFromDiscovery whether to keep discovery times too, for {@link #sinceDiscovery()}
     */
    public RecoveryLatencies(int capacity, boolean timeFromDiscovery) {
        this.dropTimes = new BoundedTimes<>(capacity);
        this.discoveryTimes = timeFromDiscovery ? new BoundedTimes<>(capacity) : null;
        if (timeFromDiscovery) {
            for (Delivery how : Delivery.values()) {
                if (how != Delivery.DIRECT) {
                    sinceDiscoveryBy.put(how, new LatencyStats());
                }
            }
        }
    }

    /** Injected loss dropped {@code id} at {@code receiver} at {@code nowNs}. */
    public void dropped(int receiver, PacketId id, long nowNs) {
        dropTimes.put(new Key(receiver, id), nowNs);
    }

    /** The engine of {@code receiver} found {@code id} missing at {@code nowNs}. */
    public void discovered(int receiver, PacketId id, long nowNs) {
        Key key = new Key(receiver, id);
        Long droppedNs = dropTimes.get(key);
        if (droppedNs != null) {
            discovery.recordNs(nowNs - droppedNs);
        }
        if (discoveryTimes != null) {
            discoveryTimes.put(key, nowNs);
        }
    }

    /**
     * {@code receiver} delivered {@code id}, which it had found missing or which was dropped, at {@code nowNs};
     * {@code how} says how it came ({@link Delivery#DIRECT} is not a recovery and is ignored).
     */
    public void recovered(int receiver, PacketId id, Delivery how, long nowNs) {
        if (how == Delivery.DIRECT) {
            return;
        }
        Key key = new Key(receiver, id);
        Long droppedNs = dropTimes.take(key);
        Long foundNs = discoveryTimes == null ? null : discoveryTimes.take(key);
        if (droppedNs != null) {
            long latencyNs = nowNs - droppedNs;
            recovery.recordNs(latencyNs);
            byHow(how).recordNs(latencyNs);
        }
        if (foundNs != null) {
            sinceDiscovery.recordNs(nowNs - foundNs);
            sinceDiscoveryBy.get(how).recordNs(nowNs - foundNs);
        }
    }

    private LatencyStats byHow(Delivery how) {
        switch (how) {
            case LEC:
                return lec;
            case NAK:
                return nak;
            case FOUNTAIN:
                return fountain;
            default:
                return late;
        }
    }

    /** Every recovery of a dropped packet, however it came. */
    public LatencyStats recovery() {
        return recovery;
    }

    /** Recoveries of dropped packets by LEC (or a protocol's proactive repair). */
    public LatencyStats lec() {
        return lec;
    }

    /** Recoveries of dropped packets by the NAK layer (or a protocol's retransmission). */
    public LatencyStats nak() {
        return nak;
    }

    /** Recoveries of dropped packets rebuilt from fountain symbols (the fountain backup behind LEC). */
    public LatencyStats fountain() {
        return fountain;
    }

    /** Dropped packets that arrived after all as data (found missing, then late). */
    public LatencyStats late() {
        return late;
    }

    /** From drop to discovery, for every dropped packet found missing. */
    public LatencyStats discovery() {
        return discovery;
    }

    /** From discovery to recovery (any loss, injected or not), if discovery times are kept. */
    public LatencyStats sinceDiscovery() {
        return sinceDiscovery;
    }

    /**
     * From discovery to recovery of the losses that came back {@code how} ({@link Delivery#LEC}, {@link
     * Delivery#NAK} or {@link Delivery#LATE}), if discovery times are kept; their sum is {@link #sinceDiscovery()}.
     *
     * @throws IllegalArgumentException for {@link Delivery#DIRECT}, or if discovery times are not kept
     */
    public LatencyStats sinceDiscovery(Delivery how) {
        LatencyStats stats = sinceDiscoveryBy.get(how);
        if (stats == null) {
            throw new IllegalArgumentException("no latencies since discovery of " + how + " recoveries");
        }
        return stats;
    }
}
