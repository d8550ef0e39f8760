package io.ricochet.nak;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.StreamTable;
import io.ricochet.wire.PacketRefFlyweight;

/**
 * The tail of a sender that crashed (docs/design/lec.md, "A sender that crashes"): a receiver finds a loss only when
 * something names it, and a sender that dies right after sending leaves packets nobody names. When the GMS reports
 * the sender failed, every member multicasts TAIL with the highest seqno of its stream it knows of; a member that
 * missed the tail discovers those losses from it, and the NAK layer, finding no sender to answer, reports them
 * lost. Shared by the protocols that NAK (Ricochet, sender-based FEC).
 */
public final class FailedSenderTails {
    private final int self;
    private final Counters counters;
    private final Outbox outbox;
    private final StreamTable streams;
    private final NakRequester losses;
    private final byte[] frame = new byte[PacketRefFlyweight.TAIL_LENGTH];
    private final PacketRefFlyweight out = new PacketRefFlyweight().wrap(frame, 0);

    /**
     * @param self     this node's id
     * @param counters where TAILs sent and received, and refused ones, are counted
     * @param outbox   where TAILs are multicast
     * @param streams  the receive streams, whose highest known seqnos a TAIL announces
     * @param losses   the NAK layer that registers the losses a TAIL reveals
     */
    public FailedSenderTails(int self, Counters counters, Outbox outbox, StreamTable streams, NakRequester losses) {
        this.self = self;
        this.counters = counters;
        this.outbox = outbox;
        this.streams = streams;
        this.losses = losses;
    }

    /** The GMS reported {@code origin} failed in {@code group}: tells the group how far its stream went here. */
    public void senderFailed(int group, int origin, boolean member) {
        StreamTable.Stream stream = streams.find(origin, group);
        if (origin == self || !member || stream == null || stream.window().highest() < 0) {
            return;
        }
        int length = out.writeTail(self, origin, group, stream.window().highest(), stream.incarnation());
        counters.increment(NakCounter.TAILS_SENT);
        outbox.multicast(group, frame, 0, length);
    }

    /** A validated TAIL from another member: registers as lost what this node misses of the failed stream. */
    public void onTail(PacketRefFlyweight tail, boolean member, long nowNs) {
        counters.increment(NakCounter.TAILS_RECEIVED);
        if (tail.origin() == tail.source() || tail.origin() == self) {
            counters.increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        if (!member) {
            counters.increment(EngineCounter.NON_MEMBER);
            return;
        }
        StreamTable.Stream stream = streams.find(tail.origin(), tail.group());
        if (stream == null) {
            return; // This node never tracked the sender's stream: nothing of it was expected here.
        }
        if (stream.incarnation() != tail.incarnation()) {
            // Another run of the sender than the one this node tracks: most often the TAIL of a run that failed,
            // reaching this node after the sender came back (its new stream starts again at 0). Taking it would
            // make this node wait for, and NAK, seqnos the new run has not sent.
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return;
        }
        if (stream.window().isJump(tail.seqno())) {
            counters.increment(EngineCounter.OUT_OF_WINDOW);
            return;
        }
        losses.discoverUpTo(tail.origin(), tail.group(), stream.window(), tail.seqno(), nowNs);
    }
}
