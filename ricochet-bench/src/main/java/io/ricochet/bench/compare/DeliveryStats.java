package io.ricochet.bench.compare;

import io.ricochet.workload.LatencyHistogram;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one member's application saw: deliveries per sender, the send-to-delivery latency of every delivery and,
 * separately, of the deliveries whose first copy was dropped (the recovery latency), and payloads that were not the
 * harness's (counted, not delivered). Latencies are those of messages sent in the measured window only
 * ({@link #timeWindow}): the warm-up is there so that the JIT's first seconds do not decide the figures, and a
 * message sent while eight JVMs compile on two cores can wait seconds. Thread-safe; bounded (one count per sender,
 * two histograms).
 */
public final class DeliveryStats {
    private final int self;
    private final Map<Integer, Long> perSender = new TreeMap<>();
    private final LatencyHistogram all = new LatencyHistogram();
    private final LatencyHistogram recovered = new LatencyHistogram();
    private long delivered;
    private long malformed;
    private long own;
    /** Messages sent in [windowStartNs, windowEndNs) are timed; none before {@link #timeWindow} is called. */
    private long windowStartNs = Long.MAX_VALUE;
    private long windowEndNs = Long.MIN_VALUE;

    /** @param self the member's own id: its own messages, if a system hands them back, are not counted */
    public DeliveryStats(int self) {
        this.self = self;
    }

    /** Times the deliveries of messages sent from {@code startNs} (inclusive) to {@code endNs} (exclusive) only. */
    public synchronized void timeWindow(long startNs, long endNs) {
        windowStartNs = startNs;
        windowEndNs = endNs;
    }

    /**
     * One delivery at {@code nowNs}.
     *
     * @param stamp            the decoded payload, or null if it was not a harness payload
     * @param firstCopyDropped whether the loss injection dropped the message's first copy at this member
     */
    public synchronized void delivered(Payload.Stamp stamp, boolean firstCopyDropped, long nowNs) {
        if (stamp == null) {
            malformed++;
            return;
        }
        if (stamp.sender() == self) {
            own++;
            return;
        }
        delivered++;
        perSender.merge(stamp.sender(), 1L, Long::sum);
        if (stamp.sentNs() < windowStartNs || stamp.sentNs() >= windowEndNs) {
            return;
        }
        long micros = Math.max(0, (nowNs - stamp.sentNs()) / 1000);
        all.recordMicros(micros);
        if (firstCopyDropped) {
            recovered.recordMicros(micros);
        }
    }

    /** Deliveries of other members' messages. */
    public synchronized long delivered() {
        return delivered;
    }

    /** Deliveries of messages sent in the window whose first copy was dropped (timed recoveries). */
    public synchronized long recovered() {
        return recovered.count();
    }

    /** Payloads that were not the harness's. */
    public synchronized long malformed() {
        return malformed;
    }

    /** Own messages handed back (each system is asked not to). */
    public synchronized long own() {
        return own;
    }

    /** Deliveries per sending member. */
    public synchronized Map<Integer, Long> perSender() {
        return Map.copyOf(perSender);
    }

    /** Latency histogram of every delivery, encoded ({@link LatencyHistogram#encode}). */
    public synchronized String allLatencies() {
        return all.encode();
    }

    /** Latency histogram of the recovered deliveries, encoded ({@link LatencyHistogram#encode}). */
    public synchronized String recoveryLatencies() {
        return recovered.encode();
    }
}
