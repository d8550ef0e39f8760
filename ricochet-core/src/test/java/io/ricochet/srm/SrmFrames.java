package io.ricochet.srm;

import io.ricochet.engine.PacketId;
import io.ricochet.sim.Payloads;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;

/** Builds frames for SRM tests; payloads come from {@link Payloads}, so any delivery can be checked. */
final class SrmFrames {
    private SrmFrames() {
    }

    static PacketId id(int origin, int group, long seqno) {
        return new PacketId(origin, group, seqno);
    }

    static byte[] payload(PacketId id) {
        byte[] p = new byte[40 + (int) ((id.seqno() * 37 + id.origin() * 11) % 200)];
        Payloads.fill(p, 0, p.length, id.origin(), id.group(), id.seqno());
        return p;
    }

    static byte[] data(int origin, int group, long seqno) {
        byte[] p = payload(id(origin, group, seqno));
        byte[] frame = new byte[DataFlyweight.DATA_HEADER_LENGTH + p.length];
        new DataFlyweight().wrap(frame, 0).write(FrameType.DATA, origin, origin, group, seqno, p, 0, p.length);
        return frame;
    }

    static byte[] request(int requester, int origin, int group, long seqno) {
        byte[] frame = new byte[SrmRequestFlyweight.LENGTH];
        new SrmRequestFlyweight().wrap(frame, 0).write(requester, origin, group, seqno);
        return frame;
    }

    static byte[] repair(int repairer, int origin, int group, long seqno) {
        byte[] p = payload(id(origin, group, seqno));
        byte[] frame = new byte[SrmRepairFlyweight.REPAIR_HEADER_LENGTH + p.length];
        new SrmRepairFlyweight().wrap(frame, 0).write(repairer, origin, group, seqno, p, 0, p.length);
        return frame;
    }

    /** A session message; {@code heard} alternates sender, highest seqno heard. */
    static byte[] session(int member, int group, long highestSent, long... heard) {
        int count = heard.length / 2;
        byte[] frame = new byte[SrmSessionFlyweight.lengthFor(count)];
        SrmSessionFlyweight f = new SrmSessionFlyweight().wrap(frame, 0).writeStart(member, group, highestSent, count);
        for (int i = 0; i < count; i++) {
            f.entry(i, (int) heard[2 * i], heard[2 * i + 1]);
        }
        return frame;
    }
}
