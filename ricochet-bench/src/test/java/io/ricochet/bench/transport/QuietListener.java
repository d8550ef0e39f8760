package io.ricochet.bench.transport;

import io.ricochet.api.DeliveryListener;

/** A subscriber that takes every delivery and LOST and does nothing with them: for tests that only join groups. */
public final class QuietListener implements DeliveryListener {
    @Override
    public void delivered(int origin, int group, long seqno, byte[] payload) {
    }

    @Override
    public void lost(int origin, int group, long seqno) {
    }
}
