package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.Register;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One partition seen through raw TCP frames: sessions, snapshots, refusals and malformed input. */
class GmsSessionTest {
    private GmsCluster cluster;

    @BeforeEach
    void setUp() {
        cluster = new GmsCluster(1);
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void shouldAnswerGarbageWithAnErrorAndACloseWhileAnotherClientKeepsWorking() throws Exception {
        RecordingListener one = new RecordingListener();
        cluster.client(1, one, 4);
        Await.until("node 1 in", () -> one.hasView(4, Set.of(1)));
        try (RawSession garbage = new RawSession(cluster.addresses().get(0))) {
            garbage.sendBytes(HexFormat.of().parseHex("00000005" + "7f" + "deadbeef"));
            ErrorReply error = garbage.receive(ErrorReply.class);
            assertEquals(ErrorCode.MALFORMED_FRAME, error.code());
            assertTrue(error.message().contains("unknown message type"), error.message());
            assertTrue(garbage.isClosedByServer());
        }
        try (RawSession oversized = new RawSession(cluster.addresses().get(0))) {
            oversized.sendBytes(HexFormat.of().parseHex("00100000" + "01" + "00"));
            assertEquals(ErrorCode.MALFORMED_FRAME, oversized.receive(ErrorReply.class).code());
            assertTrue(oversized.isClosedByServer());
        }
        RecordingListener two = new RecordingListener();
        cluster.client(2, two, 4);
        Await.until("node 1 hears node 2 join", () -> one.hasEvent(MemberEventKind.JOIN, 4, 2));
        assertEquals(2, cluster.server(0).counter(GmsCounter.MALFORMED_FRAMES));
    }

    @Test
    void shouldKeepMembershipWhenAConnectionDropsAndSnapshotOnRegister() throws Exception {
        RecordingListener one = new RecordingListener();
        cluster.client(1, one, 4);
        Await.until("node 1 in", () -> one.hasView(4, Set.of(1)));
        long viewId;
        try (RawSession five = new RawSession(cluster.addresses().get(0))) {
            five.send(register(5));
            five.send(new Join(4, 5, 0));
            assertEquals(5, five.receive(MemberEvent.class).nodeId());
            viewId = five.receive(GroupView.class).viewId();
        }
        RecordingListener three = new RecordingListener();
        cluster.client(3, three, 4);
        Await.until("node 1 hears 3 join", () -> one.hasEvent(MemberEventKind.JOIN, 4, 3));
        assertEquals(0, one.count(MemberEventKind.LEAVE, 4, 5), "a closed connection is not a LEAVE");
        try (RawSession five = new RawSession(cluster.addresses().get(0))) {
            five.send(register(5));
            GroupView snapshot = five.receive(GroupView.class);
            assertEquals(Set.of(1, 3, 5), snapshot.members().keySet());
            assertEquals(Map.of(1, RecordingListener.incarnation(1), 3, RecordingListener.incarnation(3), 5,
                    RecordingListener.incarnation(5)), snapshot.incarnations());
            assertEquals(viewId + 1, snapshot.viewId());
        }
    }

    @Test
    void shouldCloseTheOlderSessionOfANodeThatRegistersAgain() throws Exception {
        try (RawSession older = new RawSession(cluster.addresses().get(0));
             RawSession newer = new RawSession(cluster.addresses().get(0))) {
            older.send(register(7));
            older.send(new Join(2, 7, 0));
            older.receive(GroupView.class);
            newer.send(register(7));
            assertEquals(Set.of(7), newer.receive(GroupView.class).members().keySet());
            assertTrue(older.isClosedByServer());
        }
    }

    @Test
    void shouldRefuseAJoinForANodeTheConnectionIsNotRegisteredAs() throws Exception {
        try (RawSession session = new RawSession(cluster.addresses().get(0))) {
            session.send(new Join(2, 7, 0));
            assertEquals(ErrorCode.NOT_REGISTERED, session.receive(ErrorReply.class).code());
            session.send(register(8));
            session.send(new Join(2, 7, 0));
            ErrorReply error = session.receive(ErrorReply.class);
            assertEquals("JOIN for node 7 on a connection registered as node 8", error.message());
            session.send(new GroupView(2, 0, 1, RecordingListener.unicast(1), Map.of(), Map.of()));
            assertEquals(ErrorCode.UNEXPECTED_MESSAGE, session.receive(ErrorReply.class).code());
        }
    }

    private static Register register(int node) {
        return new Register(node, RecordingListener.unicast(node), RecordingListener.incarnation(node));
    }
}
