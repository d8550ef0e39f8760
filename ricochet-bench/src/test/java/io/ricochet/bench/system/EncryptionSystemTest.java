package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.lec.LecCounter;
import io.ricochet.nak.NakCounter;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A cluster that encrypts ({@code encrypt on}, docs/design/security.md, "Encryption"): three daemons with 5 % of
 * their packets dropped, a failure detector in clear beside them. Every message reaches every other member exactly
 * once and intact, recovered by LEC (repairs built from decrypted packets, then encrypted themselves) and by the NAK
 * layer, while an eavesdropper on the group's address never sees a payload's bytes.
 */
class EncryptionSystemTest {
    private static final int G = 40;
    private static final int NODES = 3;
    private static final int MESSAGES = 150;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final InetSocketAddress GROUP_ADDRESS = new InetSocketAddress("239.255.0." + G, 9100);

    @Test
    void shouldDeliverEverythingExactlyOnceWhileTheWireShowsNoPayload() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        List<Traffic> apps = new ArrayList<>();
        List<byte[]> captured = new CopyOnWriteArrayList<>();
        AtomicBoolean capturing = new AtomicBoolean(true);
        try (ProcessCluster cluster = new ProcessCluster("encryption", 1)) {
            cluster.startGms();
            List<Integer> nodes = new ArrayList<>();
            for (int node = 1; node <= NODES; node++) {
                cluster.startDaemon(node, "--encrypt", "on", "--inject-loss", "uniform:0.05");
                nodes.add(node);
            }
            cluster.startFd(nodes);
            Thread sniffer = Sniffer.start(GROUP_ADDRESS, capturing, captured);
            try {
                for (int node = 1; node <= NODES; node++) {
                    Traffic app = new Traffic(node);
                    app.join(G);
                    apps.add(app);
                }
                for (Traffic app : apps) {
                    ProcessCluster.await(DEADLINE, "node " + app.node + " to see the group",
                            () -> app.members(G).size() == NODES - 1);
                }
                List<Traffic.Id> sent = new ArrayList<>();
                for (Traffic app : apps) {
                    sent.addAll(app.send(G, MESSAGES));
                }
                for (Traffic app : apps) {
                    List<Traffic.Id> expected = sent.stream().filter(id -> id.origin() != app.node).toList();
                    ProcessCluster.await(DEADLINE, "node " + app.node + " to receive " + expected.size(),
                            () -> expected.stream().allMatch(app.received::containsKey));
                    for (Traffic.Id id : expected) {
                        assertEquals(1, app.received.get(id), "node " + app.node + " got " + id + " more than once");
                    }
                    assertEquals(0, app.corrupt.get(), "node " + app.node + " got a corrupted payload");
                    assertEquals(0, app.lostNotices.get(), "node " + app.node + " was told a packet is lost");
                }
                long byLec = 0;
                long retransmits = 0;
                for (Traffic app : apps) {
                    byLec += app.counter(LecCounter.RECOVERED_BY_XOR);
                    retransmits += app.counter(NakCounter.RETRANSMITS_SENT);
                }
                assertTrue(byLec > 0, "LEC recovered packets from encrypted repairs");
                assertTrue(byLec + retransmits > 0, "losses were recovered");
            } finally {
                capturing.set(false);
                sniffer.join();
                apps.forEach(Traffic::close);
            }
        }
        List<byte[]> data = captured.stream().filter(d -> d[HeaderFlyweight.TYPE_OFFSET] == FrameType.DATA).toList();
        assertTrue(data.size() >= NODES * MESSAGES / 2, "the eavesdropper saw the group's DATA: " + data.size());
        for (byte[] datagram : data) {
            String wire = new String(datagram, StandardCharsets.ISO_8859_1);
            for (int node = 1; node <= NODES; node++) {
                // Every payload begins "<origin>:<group>:<index>:" in ASCII (Traffic.payload).
                assertTrue(!wire.contains(node + ":" + G + ":"), "a payload in clear on the wire");
            }
        }
    }
}
