package io.ricochet.sim;

import java.util.ArrayDeque;

/**
 * A receiver's bottleneck: a link that sends {@code packetsPerSecond} packets of one size each second, behind a
 * drop-tail queue of {@code queue} packets (the packet being sent not counted). A packet offered when the queue is
 * full is dropped; otherwise it leaves the link when every packet before it has and its own sending time has
 * passed. The departures are computed when the packet is offered (a FIFO at a constant rate needs no events), so
 * a rate change applies to packets offered after it.
 */
public final class BottleneckLink {
    private final int queue;
    private final ArrayDeque<Long> departures = new ArrayDeque<>();
    private long serviceNs;
    private long lastDepartureNs = Long.MIN_VALUE;
    private long offered;
    private long dropped;

    /**
     * @param packetsPerSecond the link's rate, &gt; 0
     * @param queue            packets that may wait, &ge; 0
     */
    public BottleneckLink(double packetsPerSecond, int queue) {
        if (queue < 0) {
            throw new IllegalArgumentException("queue " + queue + " packets: must be >= 0");
        }
        this.queue = queue;
        rate(packetsPerSecond);
    }

    /** Changes the rate, for the packets offered from now on. */
    public void rate(double packetsPerSecond) {
        if (!(packetsPerSecond > 0) || packetsPerSecond > 1e9) {
            throw new IllegalArgumentException("link rate " + packetsPerSecond + " packets/s: must be in (0, 1e9]");
        }
        this.serviceNs = Math.max(1, Math.round(1e9 / packetsPerSecond));
    }

    /** A packet reaches the link at {@code nowNs}: returns when it leaves it, or -1 if the queue is full. */
    public long offer(long nowNs) {
        offered++;
        while (!departures.isEmpty() && departures.peekFirst() <= nowNs) {
            departures.pollFirst();
        }
        if (departures.size() > queue) { // one being sent and a full queue behind it
            dropped++;
            return -1;
        }
        long departure = Math.max(nowNs, lastDepartureNs) + serviceNs;
        departures.addLast(departure);
        lastDepartureNs = departure;
        return departure;
    }

    /** Packets in the link at the last offer (waiting or being sent). */
    public int backlog() {
        return departures.size();
    }

    public long offered() {
        return offered;
    }

    public long dropped() {
        return dropped;
    }
}
