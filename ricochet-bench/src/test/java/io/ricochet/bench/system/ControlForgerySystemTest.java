package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Serving;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * An authenticated cluster (one GMS partition with mutual TLS, two daemons, their rack detector, a CA and a key
 * of the run's own) takes forged control messages: NODE_FAILED for a live node from a plaintext client, from a
 * client whose certificate another CA signed, from a detector whose certificate expired, and from a daemon's
 * certificate; and a REGISTER of a live node's id
 * from another daemon's certificate. Nothing may change but the GMS's counters (tls-failures, role-refused): the
 * node stays in its group at every member, no session of a real daemon is closed or replaced, and genuine traffic
 * is delivered exactly once.
 */
class ControlForgerySystemTest {
    private static final int G = 31;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Pattern COUNTER = Pattern.compile("([a-z-]+)=([0-9]+)");

    @Test
    void shouldRefuseForgedControlMessagesAndChangeNothingButCounters() throws Exception {
        NamespaceSystemTest.requirePrivateNamespace();
        try (ProcessCluster cluster = new ProcessCluster("control-forgery", 1)) {
            cluster.startGms();
            cluster.startDaemon(1);
            cluster.startDaemon(2);
            cluster.startFd(List.of(1, 2));
            // Certificates an attacker might hold: a daemon's of this cluster (another node's), and a detector's
            // from a CA of its own.
            ProcessCluster.makeCertificates(cluster.certs(), "daemon:node-9");
            ProcessCluster.makeCertificates(cluster.certs(), "--expired", "detector:rack-0");
            Path otherCa = cluster.certs().resolveSibling("other-ca");
            ProcessCluster.makeCertificates(otherCa, "detector:rack-1");
            InetSocketAddress gms = new InetSocketAddress("127.0.0.1", ProcessCluster.GMS_BASE_PORT);
            try (Traffic one = new Traffic(1, false); Traffic two = new Traffic(2, false)) {
                one.join(G);
                two.join(G);
                ProcessCluster.await(DEADLINE, "both in the group", () -> one.members(G).contains(2)
                        && two.members(G).contains(1));
                List<Traffic.Id> before = two.send(G, 20);
                ProcessCluster.await(DEADLINE, "the genuine traffic", () -> before.stream()
                        .allMatch(one.received::containsKey));

                try (ControlForger plaintext = ControlForger.plaintext(gms)) {
                    plaintext.send(new NodeFailed(2));
                    assertNull(plaintext.receive(), "a plaintext client gets no answer, only a close");
                }
                try (ControlForger stranger = ControlForger.tls(otherCa, "rack-1", cluster.certs(), gms)) {
                    stranger.send(new NodeFailed(2));
                    assertNull(stranger.receive(), "another CA's detector gets no answer, only a close");
                }
                try (ControlForger old = ControlForger.tls(cluster.certs(), "rack-0", cluster.certs(), gms)) {
                    old.send(new NodeFailed(2));
                    assertNull(old.receive(), "a detector whose certificate expired gets no answer, only a close");
                }
                try (ControlForger daemon = ControlForger.tls(cluster.certs(), "node-1", cluster.certs(), gms)) {
                    assertGreeting(daemon.receive());
                    daemon.send(new NodeFailed(2));
                    assertError(ErrorCode.NOT_AUTHORIZED, daemon.receive());
                }
                try (ControlForger impostor = ControlForger.tls(cluster.certs(), "node-9", cluster.certs(), gms)) {
                    assertGreeting(impostor.receive());
                    impostor.send(new Register(2, new InetSocketAddress("127.0.0.1", 17999), 42));
                    assertError(ErrorCode.NOT_AUTHORIZED, impostor.receive());
                    impostor.send(new Join(G, 2, Join.PROTOCOL_RICOCHET));
                    assertError(ErrorCode.NOT_REGISTERED, impostor.receive());
                }

                ProcessCluster.await(DEADLINE, "the GMS to count 3 failed handshakes and 2 refusals", () -> {
                    Map<String, Long> c = gmsCounters(cluster);
                    return c.getOrDefault("tls-failures", 0L) == 3 && c.getOrDefault("role-refused", 0L) == 2;
                });
                Map<String, Long> counters = gmsCounters(cluster);
                assertEquals(0, counters.get("failures"), "no NODE_FAILED was taken: " + counters);
                assertEquals(2, counters.get("registrations"), "only the two real REGISTERs: " + counters);
                assertEquals(0, counters.get("malformed-frames"), counters.toString());
                assertTrue(one.members(G).contains(2) && two.members(G).contains(1), "membership unchanged");
                assertFalse(cluster.log("gms-0").contains("registered again"), "no session replaced");
                assertFalse(cluster.log("daemon-2").contains("partition 0 down"), "node 2's session never dropped");
                assertFalse(cluster.log("daemon-1").contains("partition 0 down"), "node 1's session never dropped");

                List<Traffic.Id> after = two.send(G, 20);
                ProcessCluster.await(DEADLINE, "genuine traffic after the forgeries", () -> after.stream()
                        .allMatch(one.received::containsKey));
                assertTrue(one.received.values().stream().allMatch(n -> n == 1), "each delivered exactly once");
                assertEquals(0, one.corrupt.get());
                assertEquals(0, one.lost.size());
            }
        }
    }

    /** A session the GMS accepts (a certificate of its CA) opens with SERVING partition 0 of 1. */
    private static void assertGreeting(ControlMessage greeting) {
        Serving serving = assertInstanceOf(Serving.class, greeting);
        assertEquals(0, serving.partition());
        assertEquals(1, serving.partitions());
    }

    private static void assertError(int code, ControlMessage reply) {
        ErrorReply error = assertInstanceOf(ErrorReply.class, reply);
        assertEquals(ErrorCode.name(code), ErrorCode.name(error.code()), error.message());
    }

    /** The GMS's latest counter line (logged every 5 s), by label. */
    private static Map<String, Long> gmsCounters(ProcessCluster cluster) {
        String line = cluster.log("gms-0").lines().filter(l -> l.contains("GMS replica 1: sessions="))
                .reduce((a, b) -> b).orElse("");
        Map<String, Long> counters = new java.util.HashMap<>();
        Matcher m = COUNTER.matcher(line);
        while (m.find()) {
            counters.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return counters;
    }
}
