package io.ricochet.engine;

import io.ricochet.sim.Payloads;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import io.ricochet.wire.RepairFlyweight;
import io.ricochet.wire.StreamListFlyweight;
import java.util.Arrays;

/** Builds frames for scripted engine tests; payloads come from {@link Payloads} so recoveries can be checked. */
public final class Frames {
    private Frames() {
    }

    public static int lengthOf(PacketId id) {
        return 64 + (int) Math.floorMod(id.seqno() * 37 + id.origin() * 11L, 200L);
    }

    public static byte[] payload(PacketId id) {
        byte[] p = new byte[lengthOf(id)];
        Payloads.fill(p, 0, p.length, id.origin(), id.group(), id.seqno());
        return p;
    }

    public static byte[] data(int origin, int group, long seqno) {
        return data(FrameType.DATA, origin, new PacketId(origin, group, seqno));
    }

    public static byte[] data(int type, int source, PacketId id) {
        byte[] p = payload(id);
        byte[] frame = new byte[DataFlyweight.DATA_HEADER_LENGTH + p.length];
        new DataFlyweight().wrap(frame, 0).write(type, source, id.origin(), id.group(), id.seqno(), p, 0, p.length);
        return frame;
    }

    /** A STABLE from {@code source} to {@code id.origin()}: resolved below {@code id.seqno()} in {@code id.group()}. */
    public static byte[] stable(int source, PacketId id) {
        byte[] frame = new byte[StreamListFlyweight.lengthOf(1, StreamListFlyweight.PROGRESS)];
        StreamListFlyweight st = new StreamListFlyweight().wrap(frame, 0);
        st.begin(source, id.origin());
        st.add(id.group(), id.seqno(), id.seqno());
        st.finish();
        return frame;
    }

    /** A SESSIONS from {@code source}: for each id, its highest seqno in the id's group (the ids' origin unused). */
    public static byte[] sessions(int source, PacketId... ids) {
        byte[] frame = new byte[StreamListFlyweight.lengthOf(ids.length)];
        StreamListFlyweight st = new StreamListFlyweight().wrap(frame, 0);
        st.beginSessions(source);
        for (PacketId id : ids) {
            st.add(id.group(), id.seqno());
        }
        st.finish();
        return frame;
    }

    public static byte[] ref(int type, int source, PacketId id) {
        byte[] frame = new byte[PacketRefFlyweight.lengthOf(type)];
        new PacketRefFlyweight().wrap(frame, 0).write(type, source, id.origin(), id.group(), id.seqno());
        return frame;
    }

    /** A repair built by {@code source} from the given packets, XOR computed here independently of the engine. */
    public static byte[] repair(int source, PacketId... ids) {
        return repair(source, 0, ids);
    }

    /** A repair whose entries carry {@link #seal}s of {@code sealLength} bytes. */
    public static byte[] repair(int source, int sealLength, PacketId... ids) {
        int longest = Arrays.stream(ids).mapToInt(Frames::lengthOf).max().orElse(0);
        byte[] frame = new byte[RepairFlyweight.frameLength(ids.length, longest, sealLength)];
        RepairFlyweight f = new RepairFlyweight().wrap(frame, 0).writeStart(source, ids.length, longest, sealLength);
        for (int i = 0; i < ids.length; i++) {
            f.entry(i, ids[i].origin(), ids[i].group(), ids[i].seqno(), lengthOf(ids[i]))
                    .entrySeal(i, seal(ids[i], sealLength), 0);
            byte[] p = payload(ids[i]);
            for (int b = 0; b < p.length; b++) {
                frame[f.payloadOffset() + b] ^= p[b];
            }
        }
        return frame;
    }

    /** A stand-in seal of {@code length} bytes, different for every id (no MAC: for tests of where seals go). */
    public static byte[] seal(PacketId id, int length) {
        byte[] seal = new byte[length];
        long mix = id.seqno() * 0x9E3779B97F4A7C15L ^ id.origin() * 31L ^ id.group();
        for (int i = 0; i < length; i++) {
            seal[i] = (byte) (mix >>> (8 * (i % 8)) ^ i);
        }
        return seal;
    }

    public static PacketId id(int origin, int group, long seqno) {
        return new PacketId(origin, group, seqno);
    }

    public static int source(byte[] frame) {
        return Bytes.getInt(frame, 8);
    }
}
