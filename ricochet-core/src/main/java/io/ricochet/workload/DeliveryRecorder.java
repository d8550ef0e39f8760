package io.ricochet.workload;

import io.ricochet.client.Delivery;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Records what one node's daemon delivers: the message ids received per (origin, group) (docs/api.md, "Message
 * ids"), duplicates, corrupt payloads, LOST notices (each the id of a datagram's first message, for all of it), and
 * end-to-end latency (receive time minus the send time carried in the payload; every namespace of a local cluster
 * reads the same clock). The client's reader thread calls {@link #accept}; the workload's own thread reads totals
 * and the final {@link #snapshot()}, so every method is synchronized.
 */
public final class DeliveryRecorder implements Consumer<Delivery> {
    private final int self;
    private final long tag;
    private final LongSupplier clockMicros;
    private final Map<StreamKey, SeqnoRanges> received = new TreeMap<>();
    private final Map<StreamKey, SeqnoRanges> lost = new TreeMap<>();
    private final ViolationLog duplicates = new ViolationLog();
    private final ViolationLog corrupt = new ViolationLog();
    private final LatencyHistogram latency = new LatencyHistogram();
    private final DeliveryTimeline timeline = new DeliveryTimeline();
    private long delivered;
    private long selfDeliveries;

    /**
     * @param self        this node's id: its own packets, if the daemon hands them back, are only counted
     * @param tag         the run's tag: payloads of other runs count as corrupt
     * @param clockMicros wall clock in microseconds since the epoch
     */
    public DeliveryRecorder(int self, long tag, LongSupplier clockMicros) {
        this.self = self;
        this.tag = tag;
        this.clockMicros = clockMicros;
    }

    @Override
    public synchronized void accept(Delivery d) {
        StreamKey stream = new StreamKey(d.origin(), d.group());
        if (d.kind() == Delivery.Kind.DROPPED) {
            return;     // the messages this client read too slowly for: its OVERFLOW total counts them as missing
        }
        if (d.isLost()) {
            lost.computeIfAbsent(stream, k -> new SeqnoRanges()).add(d.seqno());
            return;
        }
        delivered++;
        if (d.origin() == self) {
            selfDeliveries++;
            return;
        }
        if (!received.computeIfAbsent(stream, k -> new SeqnoRanges()).add(d.seqno())) {
            duplicates.add(new Violation(d.origin(), d.group(), d.seqno(), self, ""));
            return;
        }
        long nowMicros = clockMicros.getAsLong();
        timeline.add(d.origin(), nowMicros);
        try {
            PayloadCodec.Header header = PayloadCodec.decode(d.payload(), d.origin(), d.group(), tag);
            latency.recordMicros(nowMicros - header.sentAtMicros());
        } catch (CorruptPayloadException e) {
            corrupt.add(new Violation(d.origin(), d.group(), d.seqno(), self, e.getMessage()));
        }
    }

    /** Deliveries so far, own packets and duplicates included (for progress lines). */
    public synchronized long delivered() {
        return delivered;
    }

    /** LOST notices so far. */
    public synchronized long lostNotices() {
        return lost.values().stream().mapToLong(SeqnoRanges::count).sum();
    }

    /** A copy of everything recorded so far. */
    public synchronized Snapshot snapshot() {
        LatencyHistogram latencyCopy = new LatencyHistogram();
        latencyCopy.add(latency);
        return new Snapshot(copy(received), copy(lost), duplicates.copy(), corrupt.copy(), selfDeliveries,
                latencyCopy, timeline.copy());
    }

    private static SortedMap<StreamKey, SeqnoRanges> copy(Map<StreamKey, SeqnoRanges> map) {
        SortedMap<StreamKey, SeqnoRanges> copy = new TreeMap<>();
        map.forEach((k, v) -> copy.put(k, v.copy()));
        return copy;
    }

    /**
     * What a node received.
     *
     * @param received       first copies of other nodes' packets, per stream
     * @param lost           LOST notices per stream: the id of each datagram the daemon gave up on
     * @param duplicates     packets delivered more than once
     * @param corrupt        packets whose payload failed its check
     * @param selfDeliveries this node's own packets handed back by its daemon (not part of the check)
     * @param latency        end-to-end latency of first copies with a good payload
     * @param timeline       first copies of other nodes' packets per origin per second of receipt
     */
    public record Snapshot(SortedMap<StreamKey, SeqnoRanges> received, SortedMap<StreamKey, SeqnoRanges> lost,
                           ViolationLog duplicates, ViolationLog corrupt, long selfDeliveries,
                           LatencyHistogram latency, DeliveryTimeline timeline) {
    }
}
