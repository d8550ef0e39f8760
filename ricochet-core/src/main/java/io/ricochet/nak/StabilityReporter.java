package io.ricochet.nak;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.StreamListFlyweight;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The receiver's half of {@link Stability}: every {@code intervalNs}, the streams that delivered a packet since the
 * last round tell their senders how far they are resolved (their windows' bases) and how far they have received (the
 * progress a sender's send window counts from), if either moved: one {@link FrameType#STABLE} per sender with an
 * entry per group ({@link StreamListFlyweight}). So reports cost at most one
 * small frame per sender per interval, whatever the number of groups, and nothing while streams are idle. At high
 * rates a round is also due once {@code every} packets were delivered since the last one: a sender whose
 * retransmit buffer holds a few hundred packets then learns of its receivers' progress long before the interval
 * (its buffer, and so how far it may run ahead of its slowest receiver, can be small). A lost report only delays
 * the sender's release to the next one, or to the retention time.
 */
public final class StabilityReporter {
    private final int self;
    private final long intervalNs;
    private final int every;
    /** Packets delivered since the last round. */
    private int sinceRound;
    private final Counters counters;
    private final Outbox outbox;
    private final StreamTable streams;
    /** Streams marked since the last round, by sender (in id order, so rounds are deterministic). */
    private final TreeMap<Integer, List<StreamTable.Stream>> marked = new TreeMap<>();
    private final byte[] frame = new byte[HeaderFlyweight.STANDARD_FRAME_LENGTH];
    private final StreamListFlyweight out = new StreamListFlyweight().wrap(frame, 0);
    private long nextNs = Long.MAX_VALUE;

    /**
     * @param intervalNs time between rounds of reports (positive)
     * @param every      packets delivered after which a round is due before its time (0: only the interval)
     * @param streams    the node's streams: a marked stream that is no longer there (pruned, or replaced by a
     *                   restarted sender's) is not reported
     */
    public StabilityReporter(int self, long intervalNs, int every, Counters counters, Outbox outbox,
                             StreamTable streams) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("interval " + intervalNs + " ns: must be positive");
        }
        if (every < 0) {
            throw new IllegalArgumentException("every " + every + " packets: must be 0 (off) or positive");
        }
        this.self = self;
        this.intervalNs = intervalNs;
        this.every = every;
        this.counters = counters;
        this.outbox = outbox;
        this.streams = streams;
    }

    /** A packet of {@code stream} was delivered (its base may have moved): report it in the next round. */
    public void delivered(StreamTable.Stream stream, long nowNs) {
        if (stream.origin() == self) {
            return;
        }
        if (stream.markForReport()) {
            marked.computeIfAbsent(stream.origin(), o -> new ArrayList<>()).add(stream);
            if (nextNs == Long.MAX_VALUE) {
                nextNs = nowNs + intervalNs;
            }
        }
        if (every > 0 && ++sinceRound >= every) {
            nextNs = Math.min(nextNs, nowNs);
        }
    }

    /** When the next round is due, or {@link Long#MAX_VALUE} if no stream is marked. */
    public long nextDeadlineNs() {
        return nextNs;
    }

    /** Sends the round's reports if it is due. */
    public void poll(long nowNs) {
        if (nowNs < nextNs) {
            return;
        }
        nextNs = Long.MAX_VALUE;
        sinceRound = 0;
        for (var bySender : marked.entrySet()) {
            int origin = bySender.getKey();
            out.begin(self, origin);
            for (StreamTable.Stream stream : bySender.getValue()) {
                if (!stream.takeReport() || stream.reportedProgress() <= 0
                        || streams.find(origin, stream.group()) != stream) {
                    continue; // nothing new, or the stream of an earlier incarnation: its seqnos are not the sender's
                }
                long base = stream.reportedBase();
                long progress = stream.reportedProgress();
                if (!out.add(stream.group(), base, progress)) {
                    send(origin);
                    out.begin(self, origin);
                    out.add(stream.group(), base, progress);
                }
            }
            if (out.count() > 0) {
                send(origin);
            }
        }
        marked.clear();
    }

    private void send(int origin) {
        int length = out.finish();
        counters.increment(NakCounter.STABLES_SENT);
        outbox.unicast(origin, frame, 0, length);
    }
}
