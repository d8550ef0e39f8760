package io.ricochet.pbcast;

import io.ricochet.sim.Payloads;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;

/** Builds valid pbcast frames for tests; payloads come from {@link Payloads} so they can be checked. */
final class TestFrames {
    /** One digest entry: sender, first seqno, run length, retransmitted flag. */
    record Run(int origin, long first, int count, boolean retransmitted) {
        static Run of(int origin, long first, int count) {
            return new Run(origin, first, count, false);
        }
    }

    private TestFrames() {
    }

    static byte[] digest(int source, int group, int round, Run... runs) {
        byte[] frame = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
        DigestFlyweight d = new DigestFlyweight().wrap(frame, 0).start(source, group, round);
        for (Run r : runs) {
            d.add(r.origin(), r.first(), r.count(), r.retransmitted() ? DigestFlyweight.FLAG_RETRANSMITTED : 0);
        }
        return Arrays.copyOf(frame, d.frameLength());
    }

    static byte[] solicit(int type, int source, int origin, int group, long seqno, int argument) {
        byte[] frame = new byte[SolicitFlyweight.LENGTH];
        new SolicitFlyweight().wrap(frame, 0).write(type, source, origin, group, seqno, argument);
        return frame;
    }

    static byte[] data(int origin, int group, long seqno) {
        return data(FrameType.DATA, origin, origin, group, seqno);
    }

    static byte[] retransmit(int source, int origin, int group, long seqno) {
        return data(PbcastFrameType.RETRANSMIT, source, origin, group, seqno);
    }

    static byte[] data(int type, int source, int origin, int group, long seqno) {
        byte[] payload = payload(origin, group, seqno);
        byte[] frame = new byte[DataFlyweight.DATA_HEADER_LENGTH + payload.length];
        new DataFlyweight().wrap(frame, 0).write(type, source, origin, group, seqno, payload, 0, payload.length);
        return frame;
    }

    static int payloadLength(long seqno) {
        return 16 + (int) (seqno % 50);
    }

    static byte[] payload(int origin, int group, long seqno) {
        byte[] p = new byte[payloadLength(seqno)];
        Payloads.fill(p, 0, p.length, origin, group, seqno);
        return p;
    }
}
