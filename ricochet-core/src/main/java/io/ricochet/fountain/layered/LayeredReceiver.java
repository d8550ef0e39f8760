package io.ricochet.fountain.layered;

import java.util.Arrays;

/**
 * A receiver's join / leave rule, from its own losses only (paper, section VII-A, after Vicisano, Rizzo and
 * Crowcroft). It subscribes to level i: layers 0..i. From the packets it gets it sees gaps in each layer's numbers
 * (losses) and the SPs passed (a packet with a higher SP number than the last). Then:
 *
 * <ul>
 *   <li>Leave: a loss outside a burst drops the top layer, unless the receiver is deaf: for {@code deafNs} after a
 *       leave, losses do not drop another (the leave takes time to reach the network and the queue to drain).</li>
 *   <li>Join: right after an SP whose level is at least the receiver's, it adds the next layer if it saw no loss
 *       at all since the previous SP ("keeps track of the history of events only from the last SP"), that is none
 *       in the burst just before this SP (the probe) nor after it.</li>
 *   <li>A loss in a burst (a gap next to a burst packet) only forbids the join at the next SP.</li>
 * </ul>
 *
 * {@link #onPacket} says what to do; the caller carries it out (joins or leaves the layer's group).
 */
public final class LayeredReceiver {
    /** What the receiver does after a packet. */
    public enum Action { NONE, JOIN, LEAVE }

    private final LayerSchedule schedule;
    private final long deafNs;
    private final long[] lastSeqno;
    private final boolean[] lastInBurst;
    private int level;
    private long lastSp = -1;
    private boolean wholeWindow; // it has watched since the last SP: a newcomer's first window is partial
    private boolean lossSinceSp;
    private long deafUntilNs = Long.MIN_VALUE;
    private long losses;
    private long burstLosses;
    private long received;

    /**
     * @param schedule the sender's schedule
     * @param level    the level it starts at (0 for a newcomer)
     * @param deafNs   how long after a leave losses do not cause another, &ge; 0
     */
    public LayeredReceiver(LayerSchedule schedule, int level, long deafNs) {
        if (level < 0 || level > schedule.topLevel()) {
            throw new IllegalArgumentException("level " + level + ": must be in 0.." + schedule.topLevel());
        }
        if (deafNs < 0) {
            throw new IllegalArgumentException("deaf period " + deafNs + " ns: must be >= 0");
        }
        this.schedule = schedule;
        this.deafNs = deafNs;
        this.level = level;
        this.lastSeqno = new long[schedule.layers()];
        this.lastInBurst = new boolean[schedule.layers()];
        Arrays.fill(lastSeqno, -1);
    }

    /** Layers 0..level are subscribed. */
    public int level() {
        return level;
    }

    /** Packets found missing (gaps), in bursts or not. */
    public long losses() {
        return losses;
    }

    /** Of {@link #losses()}, those next to a burst packet. */
    public long burstLosses() {
        return burstLosses;
    }

    /** Packets taken (of subscribed layers). */
    public long received() {
        return received;
    }

    /** A packet arrived at {@code nowNs}: returns whether to join the next layer, leave the top one, or neither. */
    public Action onPacket(LayeredPacket packet, long nowNs) {
        int layer = packet.layer();
        if (layer > level) {
            return Action.NONE; // a layer just left: its packets still in flight are not ours
        }
        received++;
        boolean congested = false;
        boolean join = false;
        if (packet.sp() > lastSp) {
            // The layers share the bottleneck's FIFO: whatever any subscribed layer sent before the SP and has not
            // arrived by now, the first packet after it, is lost. Counting it now rather than at the layer's next
            // packet puts the burst's losses in the window of the SP they probe for.
            for (int l = 0; l <= level && lastSp >= 0; l++) {
                congested |= missing(l, schedule.packetsBeforeSp(l, packet.sp()) - 1);
            }
            join = wholeWindow && packet.sp() == lastSp + 1 && !lossSinceSp && level < schedule.topLevel()
                    && schedule.spLevel(packet.sp()) >= level;
            wholeWindow = lastSp >= 0;
            lastSp = packet.sp();
            lossSinceSp = false;
        }
        congested |= missing(layer, packet.seqno() - 1);
        lastSeqno[layer] = Math.max(lastSeqno[layer], packet.seqno());
        lastInBurst[layer] = packet.burst();
        if (congested && level > 0 && nowNs >= deafUntilNs) {
            lastSeqno[level] = -1;
            level--;
            deafUntilNs = nowNs + deafNs;
            return Action.LEAVE;
        }
        if (join && !congested) {
            level++;
            lastSeqno[level] = -1;
            return Action.JOIN;
        }
        return Action.NONE;
    }

    /**
     * Counts {@code layer}'s packets after the last one seen up to {@code upTo} as lost, if any; returns whether
     * any was outside a burst (congestion, not a probe).
     */
    private boolean missing(int layer, long upTo) {
        long last = lastSeqno[layer];
        if (last < 0 || upTo <= last) {
            return false;
        }
        long count = upTo - last;
        losses += count;
        lossSinceSp = true;
        boolean burst = lastInBurst[layer] || schedule.inBurst(layer, last + 1) || schedule.inBurst(layer, upTo);
        lastSeqno[layer] = upTo;
        lastInBurst[layer] = schedule.inBurst(layer, upTo);
        if (burst) {
            burstLosses += count;
        }
        return !burst;
    }
}
