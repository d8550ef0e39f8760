package io.ricochet.lecnak;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Frames;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.support.Fuzz;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RicochetEngine#onPacket} fed frames that would pass the datagram MAC (a member's key) but carry anything:
 * every frame type, members and strangers as sources and origins, groups this node is in and not, seqnos near the
 * streams and far from them, random repair entries, random bytes after a valid header, truncations. Nothing may
 * throw, and every buffer stays within its bound. {@code -Dricochet.fuzz.frames=10000000} (or
 * {@code -Dricochet.fuzz.inputs}) runs the long version.
 */
class RicochetEngineFuzzTest {
    private static final int SELF = 1;
    private static final int[] GROUPS = {5, 6};
    private static final int STRANGER_GROUP = 9;
    private static final long MS = 1_000_000L;
    private static final int FRAMES = Integer.getInteger("ricochet.fuzz.frames", Fuzz.inputs(100_000));

    /** Counts what the engine does, keeping nothing (a fuzz run must not grow the test's memory). */
    private static final class CountingOutbox implements Outbox {
        long sent;
        long delivered;
        long lost;

        @Override
        public void multicast(int group, byte[] frame, int offset, int length) {
            sent++;
        }

        @Override
        public void unicast(int node, byte[] frame, int offset, int length) {
            sent++;
        }

        @Override
        public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
            delivered++;
        }

        @Override
        public void lost(int origin, int group, long seqno, long discoveredNs) {
            lost++;
        }

        @Override
        public void wakeAt(long deadlineNs) {
        }
    }

    @Test
    void shouldNeverThrowNorGrowBeyondItsBoundsOnFramesOfRandomContent() {
        SplittableRandom rng = new SplittableRandom(Long.getLong("ricochet.fuzz.seed", 20261124L));
        RicochetConfig config = RicochetConfig.builder().r(4).c(3).stabilityIntervalNs(20_000_000L).build();
        CountingOutbox out = new CountingOutbox();
        RicochetEngine engine = new RicochetEngine(SELF, config, new SplittableRandom(3), out);
        for (int group : GROUPS) {
            for (int node = 1; node <= 5; node++) {
                engine.onMembership(MembershipEvent.join(group, node), 0);
            }
        }
        long[] next = new long[8];
        long nowNs = 0;
        for (int i = 0; i < FRAMES; i++) {
            nowNs += rng.nextInt(200_000);
            byte[] frame = frame(rng, next);
            int length = rng.nextInt(20) == 0 ? rng.nextInt(frame.length + 1) : frame.length;
            engine.onPacket(frame, 0, length, nowNs);
            if (rng.nextInt(50) == 0) {
                engine.onTimer(nowNs);
            }
            if (rng.nextInt(5_000) == 0) {
                int node = 2 + rng.nextInt(4);
                int group = GROUPS[rng.nextInt(GROUPS.length)];
                engine.onMembership(MembershipEvent.fail(group, node), nowNs); // a flap: failed, then back
                engine.onMembership(MembershipEvent.join(group, node), nowNs + rng.nextInt(1_000_000));
            }
            if (i % 10_000 == 0) {
                assertBounded(engine, config);
            }
        }
        for (int t = 0; t < 200; t++) {
            nowNs += 50 * MS;
            engine.onTimer(nowNs);
        }
        assertBounded(engine, config);
        System.out.printf("engine fuzz: %d frames, %d delivered, %d reported lost, %d sent; %s%n", FRAMES,
                out.delivered, out.lost, out.sent, engine.bufferUsage());
        System.out.println("engine fuzz counters: " + engine.counters().snapshot());
        assertTrue(out.delivered > 0 && engine.counters().get(EngineCounter.INVALID_PACKETS) > 0,
                "the run exercised both sides: " + engine.counters().snapshot());
    }

    private static void assertBounded(RicochetEngine engine, RicochetConfig config) {
        Map<String, Long> usage = engine.bufferUsage();
        assertTrue(usage.get("streams") <= 4L * GROUPS.length, "streams of listed members only: " + usage);
        assertTrue(usage.get("pendingLosses") <= config.nakSettings().maxPendingLosses(), usage.toString());
        assertTrue(usage.get("dataCachePackets") <= config.dataCacheCapacity(), usage.toString());
        assertTrue(usage.get("bufferedRepairs") <= config.repairBufferCapacity(), usage.toString());
        assertTrue(usage.get("retransmitPackets") <= config.retransmitCapacity(), usage.toString());
    }

    private static byte[] frame(SplittableRandom rng, long[] next) {
        int origin = rng.nextInt(10) == 0 ? 100 + rng.nextInt(1000) : 2 + rng.nextInt(4);
        int group = rng.nextInt(20) == 0 ? STRANGER_GROUP : GROUPS[rng.nextInt(GROUPS.length)];
        int slot = Math.min(origin, next.length - 1);
        int pick = rng.nextInt(100);
        long seqno;
        if (pick < 1) {
            seqno = rng.nextLong(1L << 50);                       // anywhere (a restart, if far ahead)
        } else if (pick < 3) {
            seqno = next[slot] + rng.nextInt(3_000);              // a gap longer than one reveal
        } else if (pick < 13) {
            seqno = Math.max(0, next[slot] - rng.nextInt(100));  // old
        } else {
            seqno = next[slot] + rng.nextInt(3);                  // in order, give or take
        }
        // Follow the stream: past a restart, the next frames go on from where it restarted.
        next[slot] = pick < 1 ? Math.max(next[slot], seqno + 1) : Math.max(next[slot], Math.min(seqno + 1,
                next[slot] + 3_000));
        PacketId id = new PacketId(origin, group, seqno);
        byte[] frame = switch (rng.nextInt(9)) {
            case 0, 1, 2 -> Frames.data(origin, group, seqno);
            case 3 -> Frames.data(FrameType.RETRANSMIT, rng.nextInt(6), id);
            case 4 -> Frames.ref(FrameType.NAK, origin, new PacketId(SELF, group, rng.nextInt(50)));
            case 5 -> rng.nextInt(4) == 0 ? Frames.stable(rng.nextInt(6), new PacketId(SELF, group, seqno))
                    : Frames.ref(new int[] {FrameType.GONE, FrameType.SESSION, FrameType.TAIL}[rng.nextInt(3)],
                    rng.nextInt(6), id);
            case 6 -> Frames.repair(2 + rng.nextInt(4), id, new PacketId(2 + rng.nextInt(4), group,
                    Math.max(0, seqno - rng.nextInt(8))));
            case 7 -> Frames.repair(2 + rng.nextInt(4), id);
            default -> randomAfterHeader(rng, Frames.data(origin, group, seqno));
        };
        if (rng.nextInt(10) == 0) {
            frame[HeaderFlyweight.HEADER_LENGTH + rng.nextInt(frame.length - HeaderFlyweight.HEADER_LENGTH)] ^=
                    (byte) (1 + rng.nextInt(255));
        }
        return frame;
    }

    private static byte[] randomAfterHeader(SplittableRandom rng, byte[] frame) {
        for (int i = HeaderFlyweight.HEADER_LENGTH; i < frame.length; i++) {
            frame[i] = (byte) rng.nextInt(256);
        }
        frame[HeaderFlyweight.TYPE_OFFSET] = (byte) (1 + rng.nextInt(FrameType.MAX));
        return frame;
    }
}
