package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Register;
import io.ricochet.control.tls.TestCertificates;
import io.ricochet.control.verdict.GmsFailureReporter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One partition with mutual TLS and roles, its certificates made by {@code scripts/certs}: daemons and a detector
 * with the cluster's certificates do their jobs; a daemon certificate cannot report failures or register as another
 * node; a plaintext client and a client of another CA are closed at the handshake and counted; a client does not
 * talk to a server whose certificate is not a GMS's. Nothing refused changes the membership.
 */
class GmsTlsTest {
    private static final int G = 4;

    @TempDir
    static Path certs;
    @TempDir
    static Path otherCa;

    private GmsCluster cluster;

    @BeforeAll
    static void makeCertificates() throws Exception {
        TestCertificates.make(certs, "gms:gms-p0", "daemon:node-1", "daemon:node-2", "daemon:node-3",
                "detector:rack-1");
        TestCertificates.make(otherCa, "gms:gms-p0", "daemon:node-1", "detector:rack-1");
        TestCertificates.make(certs, "--expired", "detector:old-rack");
    }

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldCarryMembershipAndVerdictsOverMutualTls() {
        cluster = new GmsCluster(1, TestCertificates.settings(certs, "gms-p0"));
        RecordingListener one = client(1);
        RecordingListener two = client(2);
        Await.until(() -> "both in group " + G + ": " + one, () -> one.members(G).equals(Set.of(1, 2)));
        GmsFailureReporter detector = cluster.track(new GmsFailureReporter(cluster.replicas(), cluster.group,
                TestCertificates.settings(certs, "rack-1")));
        detector.failed(2);
        Await.until(() -> "node 1 hears node 2 FAIL: " + one, () -> one.hasEvent(MemberEventKind.FAIL, G, 2));
        assertTrue(two.isUp(0));
        assertEquals(0, server().counter(GmsCounter.TLS_FAILURES));
        assertEquals(0, server().counter(GmsCounter.ROLE_REFUSED));
        assertEquals(1, server().counter(GmsCounter.FAILURES));
    }

    @Test
    void shouldRefuseVerdictsFromADaemonAndARegisterOfAnotherNodeAndChangeNothing() throws Exception {
        cluster = new GmsCluster(1, TestCertificates.settings(certs, "gms-p0"));
        RecordingListener one = client(1);
        RecordingListener two = client(2);
        Await.until(() -> "both in group " + G + ": " + one, () -> one.members(G).equals(Set.of(1, 2)));
        InetSocketAddress gms = cluster.addresses().get(0);
        try (RawSession forger = new RawSession(TestCertificates.socket(certs, "node-2", gms))) {
            forger.send(new NodeFailed(1));
            assertRefused(forger, ErrorCode.NOT_AUTHORIZED, "only failure detectors");
            forger.send(new NodeRecovered(1));
            assertRefused(forger, ErrorCode.NOT_AUTHORIZED, "only failure detectors");
            forger.send(new Register(1, RecordingListener.unicast(2), RecordingListener.incarnation(1) + 99));
            assertRefused(forger, ErrorCode.NOT_AUTHORIZED, "may register only as its own node");
            // Not registered as node 1, so it cannot speak for it either.
            forger.send(new Leave(G, 1));
            assertRefused(forger, ErrorCode.NOT_REGISTERED, "has not sent REGISTER");
        }
        assertEquals(3, server().counter(GmsCounter.ROLE_REFUSED));
        assertEquals(0, server().counter(GmsCounter.FAILURES) + server().counter(GmsCounter.RECOVERIES));
        assertEquals(2, server().counter(GmsCounter.REGISTRATIONS));
        // Node 1's own session is untouched: it still hears the next change, and was announced once only.
        RecordingListener three = client(3);
        Await.until(() -> "node 1 hears node 3 join: " + one, () -> one.hasEvent(MemberEventKind.JOIN, G, 3));
        assertEquals(Set.of(1, 2, 3), one.members(G));
        assertEquals(1, one.count(MemberEventKind.JOIN, G, 1), "node 1 was not announced again");
        assertEquals(0, one.count(MemberEventKind.FAIL, G, 1) + one.count(MemberEventKind.LEAVE, G, 1));
        assertTrue(one.isUp(0) && two.isUp(0) && three.isUp(0));
    }

    @Test
    void shouldCloseAndCountAPlaintextClientAnExpiredOneAndOneOfAnotherCa() throws Exception {
        cluster = new GmsCluster(1, TestCertificates.settings(certs, "gms-p0"));
        RecordingListener one = client(1);
        Await.until(() -> "node 1 in: " + one, () -> one.members(G).equals(Set.of(1)));
        InetSocketAddress gms = cluster.addresses().get(0);
        try (RawSession plaintext = new RawSession(gms)) {
            sendRefused(plaintext, new NodeFailed(1));
        }
        // Trusts the cluster's CA, but presents a detector certificate another CA signed.
        try (RawSession stranger = new RawSession(TestCertificates.socket(otherCa, "rack-1", certs, gms))) {
            sendRefused(stranger, new NodeFailed(1));
        }
        // The cluster's CA signed it, but it expired yesterday.
        try (RawSession expired = new RawSession(TestCertificates.socket(certs, "old-rack", gms))) {
            sendRefused(expired, new NodeFailed(1));
        }
        Await.until("three failed handshakes counted", () -> server().counter(GmsCounter.TLS_FAILURES) == 3);
        assertEquals(0, server().counter(GmsCounter.FAILURES));
        assertEquals(0, server().counter(GmsCounter.MALFORMED_FRAMES), "a TLS failure is not a malformed frame");
        RecordingListener two = client(2);
        Await.until(() -> "node 1 hears node 2 join: " + one, () -> one.hasEvent(MemberEventKind.JOIN, G, 2));
        assertEquals(Set.of(1, 2), one.members(G));
        assertTrue(two.isUp(0));
    }

    @Test
    void shouldNeverRegisterAClientWhoseCertificateTheGmsDoesNotTrust() throws Exception {
        cluster = new GmsCluster(1, TestCertificates.settings(certs, "gms-p0"));
        // The client trusts both CAs, so it accepts the GMS; the GMS trusts only its own, so it refuses the client.
        Path bothCas = otherCa.resolve("both-cas.pem");
        java.nio.file.Files.writeString(bothCas, java.nio.file.Files.readString(otherCa.resolve("ca.pem"))
                + java.nio.file.Files.readString(certs.resolve("ca.pem")));
        io.ricochet.control.tls.TlsSettings foreign = io.ricochet.control.tls.TlsSettings.from(
                otherCa.resolve("node-1.pem"), otherCa.resolve("node-1.key"), bothCas, false, "--", "--insecure");
        RecordingListener one = new RecordingListener();
        cluster.client(1, RecordingListener.incarnation(1), one, cluster.addresses(), foreign, G);
        Await.until("the GMS to refuse it twice", () -> server().counter(GmsCounter.TLS_FAILURES) >= 2);
        assertEquals(0, server().counter(GmsCounter.REGISTRATIONS));
        assertEquals(0, server().counter(GmsCounter.JOINS));
    }

    @Test
    void shouldNotTalkToAServerWhoseCertificateIsNotAGms() {
        // A server that has the cluster's CA but a daemon's certificate.
        cluster = new GmsCluster(1, TestCertificates.settings(certs, "node-3"));
        RecordingListener one = client(1);
        Await.until("the client to try twice", () -> server().counter(GmsCounter.CONNECTIONS) >= 2);
        assertEquals(0, server().counter(GmsCounter.REGISTRATIONS), "nothing was sent to it");
        assertFalse(one.isUp(0));
    }

    private RecordingListener client(int node) {
        RecordingListener listener = new RecordingListener();
        cluster.client(node, RecordingListener.incarnation(node), listener, cluster.addresses(),
                TestCertificates.settings(certs, "node-" + node), G);
        return listener;
    }

    private GmsServer server() {
        return cluster.server(0);
    }

    private static void assertRefused(RawSession session, int code, String why) throws Exception {
        ErrorReply error = session.receive(ErrorReply.class);
        assertEquals(ErrorCode.name(code), ErrorCode.name(error.code()), error.message());
        assertTrue(error.message().contains(why), error.message());
    }

    /** Sends {@code message} on a connection the server refuses, and checks it closes without an answer. */
    private static void sendRefused(RawSession session, ControlMessage message) throws ControlDecodeException {
        try {
            session.send(message);
        } catch (IOException e) {
            return;   // Closed before the write (a reset or a TLS alert): refused all the same.
        }
        assertClosed(session);
    }

    /** The server closed the connection without sending a message. */
    private static void assertClosed(RawSession session) throws ControlDecodeException {
        try {
            assertEquals(null, session.receive(), "no message, only a close");
        } catch (IOException e) {
            // A TLS alert or a reset: closed as well.
        }
    }
}
