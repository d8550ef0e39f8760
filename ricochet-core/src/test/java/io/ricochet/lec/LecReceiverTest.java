package io.ricochet.lec;

import static io.ricochet.engine.Frames.id;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Frames;
import io.ricochet.engine.PacketId;
import io.ricochet.wire.RepairFlyweight;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Receiving repairs: reduce, recover one, combine two, buffer and recover later, and refuse the bad ones. */
class LecReceiverTest {
    private static final int G = 4;
    private static final int ORIGIN = 2;
    /** Every repair here carries seals, and every recovery must be handed the seal of the packet it rebuilt. */
    private static final int SEAL = 25;
    /** Where a held packet's payload starts in the array the node gives out. */
    private static final int HELD_AT = 7;

    /** What the node has, as the engine would answer; recovered packets become available, as in the engine. */
    private final class Node implements PacketSource {
        final List<PacketId> have = new ArrayList<>();
        final Set<PacketId> uncached = new HashSet<>();
        final Set<PacketId> rejected = new HashSet<>();
        final Map<PacketId, byte[]> recovered = new HashMap<>();
        final List<Boolean> combined = new ArrayList<>();

        @Override
        public int lookup(int origin, int group, long seqno, long nowNs) {
            PacketId id = new PacketId(origin, group, seqno);
            if (rejected.contains(id)) {
                return REJECT;
            }
            if (uncached.contains(id)) {
                return UNAVAILABLE;
            }
            int slot = have.indexOf(id);
            return slot >= 0 ? slot : MISSING;
        }

        @Override
        public byte[] payload(int slot) {
            // Held at an offset behind bytes that are no part of it, as a cache keeping whole datagrams holds it.
            byte[] payload = Frames.payload(have.get(slot));
            byte[] held = new byte[HELD_AT + payload.length];
            java.util.Arrays.fill(held, 0, HELD_AT, (byte) 0x5A);
            System.arraycopy(payload, 0, held, HELD_AT, payload.length);
            return held;
        }

        @Override
        public int offset(int slot) {
            return HELD_AT;
        }

        @Override
        public int length(int slot) {
            return Frames.lengthOf(have.get(slot));
        }

        @Override
        public void recovered(PacketId id, byte[] payload, int offset, int length, byte[] seal, int sealOffset,
                              boolean viaCombining, long nowNs) {
            assertArrayEquals(Frames.seal(id, SEAL), Arrays.copyOfRange(seal, sealOffset, sealOffset + SEAL),
                    "the seal the repair carried for " + id);
            recovered.put(id, Arrays.copyOfRange(payload, offset, offset + length));
            combined.add(viaCombining);
            have.add(id);
            receiver.onAvailable(id, payload, offset, length);
        }
    }

    private final Counters counters = new Counters(Counters.set(EngineCounter.values(), LecCounter.values()));
    private final Node node = new Node();
    private final LecReceiver receiver = new LecReceiver(8, 1024, SEAL, counters, node);

    private static PacketId p(long seqno) {
        return id(ORIGIN, G, seqno);
    }

    private void receive(PacketId... ids) {
        byte[] frame = Frames.repair(9, SEAL, ids);
        receiver.onRepair(new RepairFlyweight().wrap(frame, 0), 0);
        receiver.drainReady(0);
    }

    private void arrive(PacketId id) {
        node.have.add(id);
        byte[] payload = Frames.payload(id);
        receiver.onAvailable(id, payload, 0, payload.length);
        receiver.drainReady(0);
    }

    @Test
    void shouldRecoverTheOneMissingPacketOfARepair() {
        node.have.add(p(0));

        receive(p(0), p(1));

        assertArrayEquals(Frames.payload(p(1)), node.recovered.get(p(1)));
        assertEquals(List.of(false), node.combined);
        assertEquals(1, counters.get(LecCounter.RECOVERY_XORS), "p0 XOR-ed out");
        assertEquals(0, receiver.bufferedRepairs());
    }

    @Test
    void shouldCountARepairWithNothingMissingUseless() {
        node.have.addAll(List.of(p(0), p(1)));

        receive(p(0), p(1));

        assertEquals(1, counters.get(EngineCounter.REPAIRS_USELESS));
        assertTrue(node.recovered.isEmpty());
        assertEquals(0, counters.get(LecCounter.RECOVERY_XORS), "known useless before any payload is XOR-ed");
    }

    @Test
    void shouldBufferARepairMissingTwoAndRecoverTheOtherWhenOneArrives() {
        receive(p(0), p(1));
        assertEquals(1, receiver.bufferedRepairs());
        assertEquals(1, counters.get(LecCounter.REPAIRS_BUFFERED));

        arrive(p(0));

        assertArrayEquals(Frames.payload(p(1)), node.recovered.get(p(1)));
        assertEquals(0, receiver.bufferedRepairs());
    }

    @Test
    void shouldCombineTwoRepairsWhoseMissingSetsDifferByOnePacket() {
        receive(p(0), p(1));
        receive(p(0), p(1), p(2));

        assertArrayEquals(Frames.payload(p(2)), node.recovered.get(p(2)), "(p0^p1) ^ (p0^p1^p2) = p2");
        assertEquals(List.of(true), node.combined);
        assertEquals(2, receiver.bufferedRepairs(), "the second, reduced by p2, waits on p0 and p1 too");

        arrive(p(1));

        assertArrayEquals(Frames.payload(p(0)), node.recovered.get(p(0)));
        assertEquals(List.of(true, false), node.combined, "p0 is recovered once, not once per repair");
        assertEquals(0, receiver.bufferedRepairs());
    }

    @Test
    void shouldTakeTheSealOfAPacketRecoveredFromTheBufferedPartner() {
        receive(p(0), p(1), p(2));
        receive(p(0), p(1));

        assertArrayEquals(Frames.payload(p(2)), node.recovered.get(p(2)), "p2 is only in the buffered repair");
        assertEquals(List.of(true), node.combined);
    }

    @Test
    void shouldRefuseARepairWhoseSealsAreNotTheClustersLength() {
        node.have.add(p(0));
        for (int sealLength : new int[] {0, SEAL - 1, SEAL + 1}) {
            byte[] frame = Frames.repair(9, sealLength, p(0), p(1));
            receiver.onRepair(new RepairFlyweight().wrap(frame, 0), 0);
        }

        assertEquals(3, counters.get(EngineCounter.INVALID_PACKETS));
        assertTrue(node.recovered.isEmpty());
    }

    @Test
    void shouldRefuseARepairNamingAPacketTwice() {
        receive(p(0), p(0));

        assertEquals(1, counters.get(EngineCounter.INVALID_PACKETS));
        assertEquals(0, receiver.bufferedRepairs());
    }

    @Test
    void shouldDropARepairNamingAPacketNoLongerCachedOrRefused() {
        node.uncached.add(p(0));
        receive(p(0), p(1));
        assertEquals(1, counters.get(LecCounter.REPAIRS_UNUSABLE));

        node.rejected.add(p(3));
        receive(p(3), p(4));

        assertTrue(node.recovered.isEmpty());
        assertEquals(0, receiver.bufferedRepairs());
    }

    @Test
    void shouldForgetTheBufferedRepairsOfARestartedSender() {
        receive(p(0), p(1));
        receive(id(ORIGIN + 1, G, 0), id(ORIGIN + 1, G, 1));
        assertEquals(2, receiver.bufferedRepairs());

        receiver.forgetStream(ORIGIN, G);
        arrive(p(0));

        assertEquals(1, receiver.bufferedRepairs());
        assertTrue(node.recovered.isEmpty(), "the old incarnation's repair never meets the new packets");
    }
}
