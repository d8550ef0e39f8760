package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import io.netty.channel.EventLoopGroup;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.link.TcpChannels;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.message.Register;
import io.ricochet.control.tls.TlsSettings;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cluster keys a REGISTER names, checked against the GMS's pinned fingerprints: over loopback, then alone. */
class GmsKeyCheckTest {
    private static final KeyFingerprint KEY_1 = new KeyFingerprint(1, 0x0123456789abcdefL);
    private static final KeyFingerprint KEY_2 = new KeyFingerprint(2, 0x1111222233334444L);
    private static final KeyFingerprint OTHER_1 = new KeyFingerprint(1, 0x7777777777777777L);

    private GmsServer server;

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
    }

    private InetSocketAddress start(List<KeyFingerprint> pinned) throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        Inet4Address base = (Inet4Address) InetAddresses.forString("239.255.0.0");
        server = new GmsServer(new GmsConfig(new Partitioning(0, 1), bind, new MulticastPool(base, 9100), 60)
                .withKeyFingerprints(pinned));
        return server.start();
    }

    private static Register register(int node, List<KeyFingerprint> keys) {
        return new Register(node, RecordingListener.unicast(node), RecordingListener.incarnation(node), 0, 0, keys);
    }

    @Test
    void shouldRefuseARegisterWhoseKeyDiffersWithTheReasonAndTakeNothingFromIt() throws Exception {
        try (RawSession session = new RawSession(start(List.of(KEY_1)))) {
            session.send(register(5, List.of(OTHER_1)));
            ErrorReply error = session.receive(ErrorReply.class);
            assertEquals(ErrorCode.KEY_MISMATCH, error.code());
            assertTrue(error.message().contains("node 5 refused: its key 1 (fingerprint " + OTHER_1 + ") differs "
                    + "from the cluster's (" + KEY_1 + ")"), error.message());
            assertEquals(1, server.counter(GmsCounter.KEY_REFUSALS));
            session.send(new Join(4, 5, 0));
            assertEquals(ErrorCode.NOT_REGISTERED, session.receive(ErrorReply.class).code(),
                    "the refused REGISTER bound nothing");
        }
    }

    @Test
    void shouldTakeARegisterWhoseKeysMatch() throws Exception {
        try (RawSession session = new RawSession(start(List.of(KEY_1, KEY_2)))) {
            session.send(register(5, List.of(KEY_2, KEY_1)));
            session.send(new Join(4, 5, 0));
            assertEquals(4, session.receive(GroupView.class).group());
            assertEquals(0, server.counter(GmsCounter.KEY_REFUSALS));
        }
    }

    @Test
    void shouldNotCheckAnInsecureDaemonThatNamesNoKey() throws Exception {
        try (RawSession session = new RawSession(start(List.of(KEY_1)))) {
            session.send(register(6, List.of()));
            session.send(new Join(4, 6, 0));
            assertEquals(4, session.receive(GroupView.class).group());
        }
    }

    @Test
    void shouldTellTheDaemonsClientWhyItsRegisterWasRefused() throws Exception {
        InetSocketAddress gms = start(List.of(KEY_1));
        EventLoopGroup group = TcpChannels.newGroup(1, "test-key-client");
        RecordingListener listener = new RecordingListener();
        try (GmsClient client = new GmsClient(register(5, List.of(OTHER_1)), GmsAddresses.oneEach(List.of(gms)),
                listener, group, TlsSettings.insecure())) {
            client.start();
            Await.until("the refusal", () -> !listener.errors.isEmpty());
            assertTrue(listener.errors.get(0).startsWith("0:" + ErrorCode.KEY_MISMATCH + ":node 5 refused"),
                    listener.errors.toString());
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    @Test
    void shouldRefuseASendKeyThatIsNotPinned() {
        KeyCheck check = new KeyCheck(List.of(KEY_1));
        GmsRefusal refusal = assertThrows(GmsRefusal.class, () -> check.check(register(5, List.of(KEY_2, KEY_1))));
        assertEquals(ErrorCode.KEY_MISMATCH, refusal.code());
        assertTrue(refusal.getMessage().contains("send key 2 is not one of the cluster's keys [1]"),
                refusal.getMessage());
    }

    @Test
    void shouldRefuseAnAcceptedKeyThatDiffersFromThePinnedOne() {
        KeyCheck check = new KeyCheck(List.of(KEY_1, KEY_2));
        assertThrows(GmsRefusal.class, () -> check.check(register(5, List.of(KEY_2, OTHER_1))));
    }

    @Test
    void shouldOnlyWarnWhenNothingIsPinnedAndTwoDaemonsDisagree() throws Exception {
        KeyCheck check = KeyCheck.unpinned();
        assertNull(check.check(register(3, List.of(KEY_1))));
        assertNull(check.check(register(4, List.of(KEY_1))));
        String warning = check.check(register(5, List.of(OTHER_1)));
        assertNotNull(warning);
        assertTrue(warning.contains("node 5 names key 1") && warning.contains("node 3 named it " + KEY_1), warning);
        assertNull(check.check(register(6, List.of())), "an insecure daemon is not checked");
    }

    @Test
    void shouldRefuseAKeyIdPinnedTwice() {
        assertThrows(IllegalArgumentException.class, () -> new KeyCheck(List.of(KEY_1, OTHER_1)));
    }
}
