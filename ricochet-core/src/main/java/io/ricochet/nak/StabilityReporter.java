package io.ricochet.nak;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.ArrayDeque;

/**
 * The receiver's half of {@link Stability}: every {@code intervalNs}, each stream that delivered a packet since the
 * last round tells its sender, by a {@link FrameType#STABLE} unicast, how far it has resolved the stream (its
 * window's base), if that moved. So reports cost at most one small frame per stream per interval, and nothing for an
 * idle stream. A lost report only delays the sender's release to the next one, or to the retention time.
 */
public final class StabilityReporter {
    private final int self;
    private final long intervalNs;
    private final Counters counters;
    private final Outbox outbox;
    private final ArrayDeque<StreamTable.Stream> marked = new ArrayDeque<>();
    private final byte[] frame = new byte[PacketRefFlyweight.LENGTH];
    private final PacketRefFlyweight out = new PacketRefFlyweight().wrap(frame, 0);
    private long nextNs = Long.MAX_VALUE;

    /** @param intervalNs time between rounds of reports (positive) */
    public StabilityReporter(int self, long intervalNs, Counters counters, Outbox outbox) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("interval " + intervalNs + " ns: must be positive");
        }
        this.self = self;
        this.intervalNs = intervalNs;
        this.counters = counters;
        this.outbox = outbox;
    }

    /** A packet of {@code stream} was delivered (its base may have moved): report it in the next round. */
    public void delivered(StreamTable.Stream stream, long nowNs) {
        if (stream.origin() != self && stream.markForReport()) {
            marked.addLast(stream);
            if (nextNs == Long.MAX_VALUE) {
                nextNs = nowNs + intervalNs;
            }
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
        for (StreamTable.Stream stream = marked.pollFirst(); stream != null; stream = marked.pollFirst()) {
            long base = stream.takeReport();
            if (base > 0) {
                int length = out.write(FrameType.STABLE, self, stream.origin(), stream.group(), base);
                counters.increment(NakCounter.STABLES_SENT);
                outbox.unicast(stream.origin(), frame, 0, length);
            }
        }
    }
}
