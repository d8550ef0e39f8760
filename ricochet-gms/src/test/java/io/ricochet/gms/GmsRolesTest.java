package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Register;
import io.ricochet.control.tls.PeerIdentity.Role;
import io.ricochet.control.tls.PeerIdentity;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which role may send what (GmsSessionHandler.authorize), without a network. */
class GmsRolesTest {
    private static final Register REGISTER_3 = new Register(3, new InetSocketAddress("127.0.0.1", 7303), 1);
    private static final List<ControlMessage> VERDICTS = List.of(new NodeFailed(3), new NodeRecovered(3),
            new DetectorFailed("rack-1"), new DetectorRecovered("rack-1"));
    private static final List<ControlMessage> DAEMON_REQUESTS = List.of(REGISTER_3, new Join(1, 3, 0),
            new Leave(1, 3));

    @Test
    void shouldLetADaemonRegisterAsItselfJoinAndLeaveButNotReport() {
        PeerIdentity node3 = PeerIdentity.daemon(3);
        DAEMON_REQUESTS.forEach(m -> assertDoesNotThrow(() -> GmsSessionHandler.authorize(node3, m)));
        VERDICTS.forEach(m -> assertNotAuthorized(node3, m));
        assertNotAuthorized(PeerIdentity.daemon(4), REGISTER_3);
        assertNotAuthorized(new PeerIdentity(Role.DAEMON, "node-03", "CN=node-03,OU=daemon"), REGISTER_3);
        assertNotAuthorized(new PeerIdentity(Role.DAEMON, "rack-1", "CN=rack-1,OU=daemon"), REGISTER_3);
    }

    @Test
    void shouldLetADetectorReportButNotRegisterJoinOrLeave() {
        PeerIdentity detector = new PeerIdentity(Role.DETECTOR, "node-3", "CN=node-3,OU=detector");
        VERDICTS.forEach(m -> assertDoesNotThrow(() -> GmsSessionHandler.authorize(detector, m)));
        DAEMON_REQUESTS.forEach(m -> assertNotAuthorized(detector, m));
    }

    @Test
    void shouldLetAGmsAnOtherRoleOrNoCertificateDoNothing() {
        for (PeerIdentity peer : new PeerIdentity[] {
            new PeerIdentity(Role.GMS, "gms-p0", "CN=gms-p0,OU=gms"),
            new PeerIdentity(Role.OTHER, "node-3", "CN=node-3,OU=admin"), null}) {
            VERDICTS.forEach(m -> assertNotAuthorized(peer, m));
            DAEMON_REQUESTS.forEach(m -> assertNotAuthorized(peer, m));
        }
    }

    private static void assertNotAuthorized(PeerIdentity peer, ControlMessage message) {
        GmsRefusal refusal = assertThrows(GmsRefusal.class, () -> GmsSessionHandler.authorize(peer, message),
                peer + " " + message);
        assertEquals(ErrorCode.NOT_AUTHORIZED, refusal.code());
    }
}
