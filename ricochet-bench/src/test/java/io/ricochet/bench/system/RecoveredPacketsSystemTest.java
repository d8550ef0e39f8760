package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.MessageId;
import io.ricochet.auth.Authentication;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.daemon.BundleFormat;
import io.ricochet.engine.EngineCounter;
import io.ricochet.lec.LecCounter;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.RepairFlyweight;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * End-to-end integrity of recovered packets on real sockets: a member of an authenticated cluster (the test, with
 * the run's key) sends a daemon a repair for the next packet of another daemon's stream. Built from the wrong bytes
 * (one bit flipped, as a buggy member would), the rebuilt packet does not match the seal its origin made and is not
 * delivered; built from the right bytes, it is delivered; and the origin's own packet then arrives once, unharmed.
 */
class RecoveredPacketsSystemTest {
    private static final int G = 31;
    private static final int ORIGIN = 2;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void shouldDeliverARebuiltPacketOnlyIfItIsWhatItsOriginSent() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("recovered-packets", 1);
             DatagramSocket member = new DatagramSocket()) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startDaemon(ORIGIN);
            cluster.startFd(List.of(1, ORIGIN));
            FrameGuard guard = Authentication.with(ClusterKeys.load(cluster.keyFile())).newGuard(ORIGIN);
            InetSocketAddress victimSocket = new InetSocketAddress("127.0.0.1", ProcessCluster.UNICAST_BASE_PORT + 1);
            try (Traffic victim = new Traffic(1); Traffic origin = new Traffic(ORIGIN)) {
                victim.join(G);
                origin.join(G);
                ProcessCluster.await(DEADLINE, "both in the group", () -> victim.members(G).contains(ORIGIN));
                List<Traffic.Id> first = origin.send(G, 20);
                ProcessCluster.await(DEADLINE, "the first packets", () -> first.stream()
                        .allMatch(victim.received::containsKey));
                long next = first.get(first.size() - 1).datagram() + 1;
                Traffic.Id nextId = new Traffic.Id(ORIGIN, G, MessageId.of(next, 0));
                // The origin's next datagram: its next message alone, as a daemon writes one (docs/api.md).
                byte[] message = Traffic.payload(ORIGIN, G, first.size());
                byte[] genuine = new byte[message.length + 1];
                genuine[0] = BundleFormat.SINGLE;
                System.arraycopy(message, 0, genuine, 1, message.length);
                byte[] seal = sealOf(guard, next, genuine);

                byte[] wrong = genuine.clone();
                wrong[genuine.length - 1] ^= 1;
                member.send(repair(guard, next, seal, wrong, victimSocket));
                ProcessCluster.await(DEADLINE, "the rebuilt packet refused",
                        () -> victim.counter(LecCounter.RECOVERIES_UNSEALED) >= 1);
                assertFalse(victim.received.containsKey(nextId), "bytes the origin never sent were not delivered");

                member.send(repair(guard, next, seal, genuine, victimSocket));
                ProcessCluster.await(DEADLINE, "the rebuilt packet delivered",
                        () -> victim.received.containsKey(nextId));

                long sentBefore = origin.counter(EngineCounter.DATA_SENT);
                List<Traffic.Id> more = new ArrayList<>(origin.send(G, 1));
                assertEquals(nextId, more.get(0), "the origin's next packet is the one the repairs named");
                ProcessCluster.await(DEADLINE, "the origin to send it alone in its datagram",
                        () -> origin.counter(EngineCounter.DATA_SENT) > sentBefore);
                more.addAll(origin.send(G, 4));
                ProcessCluster.await(DEADLINE, "the origin's own packets", () -> more.stream()
                        .allMatch(victim.received::containsKey));
                assertEquals(1, victim.received.get(nextId), "delivered once: the origin's copy was a duplicate");
                assertEquals(1, victim.counter(LecCounter.RECOVERIES_UNSEALED));
                assertEquals(0, victim.corrupt.get(), "every delivered payload is the one its origin sent");
                assertTrue(victim.lost.isEmpty(), "nothing reported LOST");
            }
        }
    }

    /** The trailer the origin's DATA datagram for {@code seqno} carries (any counter value of its own: a seal). */
    private static byte[] sealOf(FrameGuard guard, long seqno, byte[] payload) {
        byte[] datagram = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
        int frame = new DataFlyweight().wrap(datagram, 0)
                .write(FrameType.DATA, ORIGIN, ORIGIN, G, seqno, payload, 0, payload.length);
        int length = guard.seal(datagram, 0, frame);
        return Arrays.copyOfRange(datagram, frame, length);
    }

    /**
     * A one-entry repair, as a member builds it, naming (ORIGIN, G, seqno) with {@code seal}, over {@code bytes},
     * sealed for node 1 (the victim, at {@code to}).
     */
    private static DatagramPacket repair(FrameGuard guard, long seqno, byte[] seal, byte[] bytes,
                                         InetSocketAddress to) {
        int frameLength = RepairFlyweight.frameLength(1, bytes.length, seal.length);
        byte[] datagram = new byte[frameLength + DatagramAuth.TRAILER_LENGTH];
        RepairFlyweight repair = new RepairFlyweight().wrap(datagram, 0)
                .writeStart(ORIGIN, 1, bytes.length, seal.length);
        repair.entry(0, ORIGIN, G, seqno, bytes.length).entrySeal(0, seal, 0);
        System.arraycopy(bytes, 0, datagram, repair.payloadOffset(), bytes.length);
        int length = guard.seal(datagram, 0, frameLength, 1);
        return new DatagramPacket(datagram, length, to);
    }
}
