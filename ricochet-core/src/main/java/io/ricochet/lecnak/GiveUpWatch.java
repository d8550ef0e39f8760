package io.ricochet.lecnak;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.Outbox;
import io.ricochet.lec.tuning.RateOfFireTuner;

/**
 * The engine's outbox with rate-of-fire tuning on: passes everything through, and tells the tuner of every loss
 * given up (neither LEC nor NAK recovered it), which only the NAK layer's ledger sees.
 */
final class GiveUpWatch implements Outbox {
    private final Outbox outbox;
    private final RateOfFireTuner tuner;

    GiveUpWatch(Outbox outbox, RateOfFireTuner tuner) {
        this.outbox = outbox;
        this.tuner = tuner;
    }

    @Override
    public void multicast(int group, byte[] frame, int offset, int length) {
        outbox.multicast(group, frame, offset, length);
    }

    @Override
    public void unicast(int node, byte[] frame, int offset, int length) {
        outbox.unicast(node, frame, offset, length);
    }

    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
        outbox.deliver(origin, group, seqno, payload, offset, length, how);
    }

    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
        tuner.resolved(group, false, 0);
        outbox.lost(origin, group, seqno, discoveredNs);
    }

    @Override
    public void wakeAt(long deadlineNs) {
        outbox.wakeAt(deadlineNs);
    }

    @Override
    public void lossDiscovered(int origin, int group, long seqno, long nowNs) {
        outbox.lossDiscovered(origin, group, seqno, nowNs);
    }
}
