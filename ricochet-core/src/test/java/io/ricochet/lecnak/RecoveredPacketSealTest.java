package io.ricochet.lecnak;

import static io.ricochet.engine.Frames.id;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Frames;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.OriginSeals;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.RecordingOutbox;
import io.ricochet.lec.LecCounter;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.RepairFlyweight;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * End-to-end integrity of recovered packets (issue 11, point 2): in an authenticated cluster a repair carries the
 * seal each packet it names was sent with, and a packet rebuilt by XOR is delivered only if it matches its seal. The
 * engine under test is node 1 of group 7 with nodes 2, 3 and 4; node 2 sends, node 3 builds repairs.
 */
class RecoveredPacketSealTest {
    private static final int SELF = 1;
    private static final int ORIGIN = 2;
    private static final int BUILDER = 3;
    private static final int G = 7;

    private final RecordingOutbox out = new RecordingOutbox();
    private Authentication auth;
    private FrameGuard guard;
    private RicochetEngine engine;

    @BeforeEach
    void start() throws NoSuchAlgorithmException {
        SecureRandom seeded = SecureRandom.getInstance("SHA1PRNG");
        seeded.setSeed(11);
        auth = Authentication.with(ClusterKeys.generate(seeded, 1));
        guard = auth.newGuard(SELF);
        engine = new RicochetEngine(SELF, RicochetConfig.builder().build(), auth.newOriginSeals(),
                new SplittableRandom(1), out);
        engine.onMembership(MembershipEvent.join(G, SELF), 0);
        for (int node = 2; node <= 4; node++) {
            engine.onMembership(MembershipEvent.join(G, node), 0);
        }
    }

    /** The datagram its origin sends for {@code id}: the DATA frame and its trailer. */
    private byte[] sealedData(PacketId id) {
        byte[] frame = Frames.data(id.origin(), id.group(), id.seqno());
        byte[] datagram = Arrays.copyOf(frame, frame.length + DatagramAuth.TRAILER_LENGTH);
        guard.seal(datagram, 0, frame.length);
        return datagram;
    }

    private static byte[] trailerOf(byte[] datagram) {
        return Arrays.copyOfRange(datagram, datagram.length - DatagramAuth.TRAILER_LENGTH, datagram.length);
    }

    /** The engine gets a datagram as the daemon hands it over: the frame, its trailer after it. */
    private void receive(byte[] datagram) {
        engine.onPacket(datagram, 0, datagram.length - DatagramAuth.TRAILER_LENGTH, 0);
    }

    /** A repair as a member builds it: each entry with the given seal, the payload the XOR of the given payloads. */
    private byte[] repair(PacketId[] ids, byte[][] seals, byte[][] payloads) {
        int sealLength = DatagramAuth.TRAILER_LENGTH;
        int longest = Arrays.stream(payloads).mapToInt(p -> p.length).max().orElse(0);
        byte[] frame = new byte[RepairFlyweight.frameLength(ids.length, longest, sealLength)];
        RepairFlyweight f = new RepairFlyweight().wrap(frame, 0).writeStart(BUILDER, ids.length, longest, sealLength);
        for (int i = 0; i < ids.length; i++) {
            f.entry(i, ids[i].origin(), ids[i].group(), ids[i].seqno(), payloads[i].length).entrySeal(i, seals[i], 0);
            for (int b = 0; b < payloads[i].length; b++) {
                frame[f.payloadOffset() + b] ^= payloads[i][b];
            }
        }
        byte[] datagram = Arrays.copyOf(frame, frame.length + DatagramAuth.TRAILER_LENGTH);
        guard.seal(datagram, 0, frame.length);
        return datagram;
    }

    private List<RecordingOutbox.Delivered> deliveries(PacketId id) {
        return out.delivered.stream().filter(d -> d.id().equals(id)).toList();
    }

    @Test
    void shouldDeliverAPacketRebuiltFromARepairWhoseSealsMatch() {
        PacketId have = id(ORIGIN, G, 0);
        PacketId lost = id(ORIGIN, G, 1);
        byte[] haveDatagram = sealedData(have);
        byte[] lostDatagram = sealedData(lost);
        receive(haveDatagram);
        receive(sealedData(id(ORIGIN, G, 2))); // seqno 1 is now missing

        receive(repair(new PacketId[] {have, lost}, new byte[][] {trailerOf(haveDatagram), trailerOf(lostDatagram)},
                new byte[][] {Frames.payload(have), Frames.payload(lost)}));

        List<RecordingOutbox.Delivered> rebuilt = deliveries(lost);
        assertEquals(1, rebuilt.size());
        assertEquals(Delivery.LEC, rebuilt.get(0).how());
        assertArrayEquals(Frames.payload(lost), rebuilt.get(0).payload());
        assertEquals(0, engine.counters().get(LecCounter.RECOVERIES_UNSEALED));
    }

    @Test
    void shouldNotDeliverBytesTheOriginNeverSentAndRecoverTheGenuinePacketLater() {
        PacketId have = id(ORIGIN, G, 0);
        PacketId lost = id(ORIGIN, G, 1);
        byte[] haveDatagram = sealedData(have);
        byte[] lostDatagram = sealedData(lost);
        receive(haveDatagram);
        receive(sealedData(id(ORIGIN, G, 2)));
        byte[] forged = Frames.payload(lost).clone();
        forged[0] ^= 1; // a member XORs one wrong bit in: the rebuilt packet is not the one the origin sealed

        receive(repair(new PacketId[] {have, lost}, new byte[][] {trailerOf(haveDatagram), trailerOf(lostDatagram)},
                new byte[][] {Frames.payload(have), forged}));

        assertTrue(deliveries(lost).isEmpty(), "the rebuilt bytes were not delivered");
        assertEquals(1, engine.counters().get(LecCounter.RECOVERIES_UNSEALED));
        assertEquals(1, engine.pendingLosses(), "the packet is still missing, for the NAK layer");

        receive(lostDatagram);
        List<RecordingOutbox.Delivered> genuine = deliveries(lost);
        assertEquals(1, genuine.size(), "the genuine packet is not a duplicate of the refused one");
        assertArrayEquals(Frames.payload(lost), genuine.get(0).payload());
    }

    @Test
    void shouldRefuseARebuiltPacketCarryingTheSealOfAnotherPacket() {
        PacketId have = id(ORIGIN, G, 0);
        PacketId lost = id(ORIGIN, G, 1);
        byte[] haveDatagram = sealedData(have);
        receive(haveDatagram);
        receive(sealedData(id(ORIGIN, G, 2)));
        byte[] otherSeal = trailerOf(sealedData(id(ORIGIN, G, 5)));

        receive(repair(new PacketId[] {have, lost}, new byte[][] {trailerOf(haveDatagram), otherSeal},
                new byte[][] {Frames.payload(have), Frames.payload(lost)}));

        assertTrue(deliveries(lost).isEmpty());
        assertEquals(1, engine.counters().get(LecCounter.RECOVERIES_UNSEALED));
    }

    @Test
    void shouldRefuseARepairWithoutSeals() {
        receive(sealedData(id(ORIGIN, G, 0)));
        receive(sealedData(id(ORIGIN, G, 2)));
        byte[] frame = Frames.repair(BUILDER, id(ORIGIN, G, 0), id(ORIGIN, G, 1));
        byte[] datagram = Arrays.copyOf(frame, frame.length + DatagramAuth.TRAILER_LENGTH);
        guard.seal(datagram, 0, frame.length);

        receive(datagram);

        assertTrue(deliveries(id(ORIGIN, G, 1)).isEmpty());
        assertEquals(1, engine.counters().get(EngineCounter.INVALID_PACKETS));
    }

    @Test
    void shouldPutTheSealEachPacketArrivedWithIntoTheRepairsItBuilds() {
        byte[][] trailers = new byte[64][];
        for (int seqno = 0; seqno < trailers.length; seqno++) {
            byte[] datagram = sealedData(id(ORIGIN, G, seqno));
            trailers[seqno] = trailerOf(datagram);
            receive(datagram);
        }
        List<RecordingOutbox.Sent> repairs = out.sent.stream().filter(s -> s.type() == FrameType.REPAIR).toList();
        assertFalse(repairs.isEmpty(), "64 packets fill bins of r = 8");
        OriginSeals check = auth.newOriginSeals();
        for (RecordingOutbox.Sent sent : repairs) {
            RepairFlyweight r = new RepairFlyweight().wrap(sent.frame(), 0);
            assertEquals(DatagramAuth.TRAILER_LENGTH, r.sealLength());
            for (int i = 0; i < r.count(); i++) {
                int seqno = (int) r.entrySeqno(i);
                byte[] seal = Arrays.copyOfRange(sent.frame(), r.entrySealOffset(i),
                        r.entrySealOffset(i) + r.sealLength());
                assertArrayEquals(trailers[seqno], seal, "entry " + i + " of a repair");
                byte[] payload = Frames.payload(id(ORIGIN, G, seqno));
                assertTrue(check.verify(ORIGIN, G, seqno, payload, 0, payload.length, seal, 0));
            }
        }
    }
}
