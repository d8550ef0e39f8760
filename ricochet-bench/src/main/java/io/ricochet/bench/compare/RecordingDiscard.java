package io.ricochet.bench.compare;

import java.util.SplittableRandom;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.pbcast.NakAckHeader2;
import org.jgroups.protocols.pbcast.NAKACK2;

/**
 * JGroups' own DISCARD protocol (placed right above the transport, as it is meant to be) narrowed to what the
 * Ricochet side's loss injector does: it drops, with probability {@code rate} from a seeded generator, only the first
 * copies of other members' data messages (NAKACK2 MSG carrying a harness payload), never retransmissions (XMIT_RSP),
 * control traffic or a member's own messages; and it records in a {@link DropLog} which messages it dropped.
 */
public class RecordingDiscard extends DISCARD {
    private static final short NAKACK2_ID = ClassConfigurator.getProtocolId(NAKACK2.class);

    private final SplittableRandom random;
    private final double rate;
    private final int self;
    private final DropLog drops;

    /**
     * @param rate  the drop probability of each data message, in [0, 1)
     * @param seed  seeds the drop decisions
     * @param self  the member's id: its own messages are never dropped
     * @param drops where the dropped messages are recorded
     */
    public RecordingDiscard(double rate, long seed, int self, DropLog drops) {
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("loss rate " + rate + " must be in [0, 1)");
        }
        this.random = new SplittableRandom(seed);
        this.rate = rate;
        this.self = self;
        this.drops = drops;
        setUpDiscardRate(rate);
    }

    @Override
    protected boolean shouldDropUpMessage(Message msg, Address sender) {
        Payload.Stamp stamp = dataStamp(msg);
        if (stamp == null || stamp.sender() == self) {
            return false;
        }
        boolean drop;
        synchronized (random) {
            drop = random.nextDouble() < rate;
        }
        if (drop) {
            drops.dropped(new DropLog.Key(stamp.sender(), stamp.counter()));
            synchronized (this) {
                num_up++;
            }
        }
        return drop;
    }

    /** The harness payload of a first copy of a multicast data message, else null. */
    static Payload.Stamp dataStamp(Message msg) {
        NakAckHeader2 header = msg.getHeader(NAKACK2_ID);
        if (header == null || header.getType() != NakAckHeader2.MSG || !msg.hasArray()) {
            return null;
        }
        return Payload.decode(msg.getArray(), msg.getOffset(), msg.getLength());
    }
}
