package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The access settings of the local API: TCP on or off, the group allow list's syntax, and the quota table. */
class ApiAccessTest {
    private static final Principal ALICE = Principal.of(1000, 1000);
    private static final Principal BOB = Principal.of(1001, 50);

    @Test
    void tcpOffNeedsAUnixSocket() {
        ApiAccess off = ApiAccess.defaults().withTcp(false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ApiConfig.defaults().withAccess(off));
        assertTrue(e.getMessage().contains("listen nowhere"), e.getMessage());
        ApiConfig unixOnly = ApiConfig.defaults().withUnixSocket(Path.of("/run/ricochet/api.sock")).withAccess(off);
        assertFalse(unixOnly.access().tcp());
        assertThrows(IllegalArgumentException.class, () -> unixOnly.withUnixSocket(null));
        assertTrue(ApiConfig.defaults().access().tcp(), "the built-in default keeps TCP on");
    }

    @Test
    void shouldParseAnAllowListAndEnforceIt() {
        GroupAccess list = GroupAccess.parse(" 5: uid=1000 , gid=50 ; 7:uid=0");
        assertTrue(list.allows(ALICE, 5), "uid listed");
        assertTrue(list.allows(BOB, 5), "primary gid listed");
        assertFalse(list.allows(BOB, 7));
        assertTrue(list.allows(Principal.of(0, 0), 7));
        assertFalse(list.allows(Principal.TCP, 5), "TCP has no uid");
        assertFalse(list.allows(Principal.UNKNOWN, 7), "nor has a peer without credentials");
        assertTrue(list.allows(Principal.TCP, 6), "a group not listed is open to all");
        assertTrue(list.restricts(5));
        assertFalse(list.restricts(6));
        assertSame(GroupAccess.OPEN, GroupAccess.parse(""));
        assertSame(GroupAccess.OPEN, GroupAccess.parse(null));
        assertTrue(GroupAccess.OPEN.allows(Principal.TCP, 5));
    }

    @Test
    void shouldNameTheFaultyEntryOfABadAllowList() {
        String[][] cases = {
            {"5", "no ':'"}, {"5:", "neither uid=N nor gid=N"}, {"5:user=1", "'user=1' is neither"},
            {"x:uid=1", "group 'x' is not a number"}, {"-1:uid=1", "group '-1' is not a number"},
            {"5:uid=alice", "uid 'alice' is not a number"}, {"5:gid=", "gid '' is not a number"},
            {"5:uid=1;;6:uid=2", "an empty entry"}, {"5:uid=1;", "an empty entry"},
            {"5:uid=1;5:gid=2", "group 5 is listed twice"}, {"5:uid=99999999999", "uid '99999999999'"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GroupAccess.parse(c[0]),
                    c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("expected GROUP:uid=N,gid=N"), c[0] + ": " + e.getMessage());
        }
    }

    @Test
    void shouldRefuseQuotasOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> ApiAccess.defaults().withMaxConnectionsPerPrincipal(0));
        assertThrows(IllegalArgumentException.class, () -> ApiAccess.defaults().withMaxGroupsPerPrincipal(0));
        assertThrows(IllegalArgumentException.class, () -> ApiAccess.defaults().withMaxSendsPerSecondPerPrincipal(-1));
        assertThrows(IllegalArgumentException.class, () -> ApiAccess.defaults().withGroupAccess(null));
        assertThrows(IllegalArgumentException.class, () -> Principal.of(-1, 0));
    }

    @Test
    void shouldKeepConnectionAndGroupQuotasPerPrincipal() {
        PrincipalQuotas quotas = new PrincipalQuotas(ApiAccess.defaults().withMaxConnectionsPerPrincipal(2)
                .withMaxGroupsPerPrincipal(3), () -> 0L);
        assertTrue(quotas.openConnection(ALICE));
        assertTrue(quotas.openConnection(ALICE));
        assertFalse(quotas.openConnection(ALICE), "a third connection of one uid");
        assertTrue(quotas.openConnection(BOB), "another uid is not locked out");
        for (int i = 0; i < 3; i++) {
            assertTrue(quotas.joinGroup(ALICE));
        }
        assertFalse(quotas.joinGroup(ALICE));
        assertTrue(quotas.joinGroup(BOB));
        quotas.leaveGroup(ALICE);
        assertTrue(quotas.joinGroup(ALICE), "a group left is given back");
        quotas.closeConnection(ALICE);
        assertTrue(quotas.openConnection(ALICE), "a connection closed is given back");
        quotas.closeConnection(BOB);
        assertEquals(1, quotas.principals(), "a principal without connections takes no entry");
        assertEquals(0, quotas.groups(BOB));
    }

    @Test
    void shouldRefillTheSendBucketOverTime() {
        AtomicLong now = new AtomicLong(5_000_000_000L);
        PrincipalQuotas quotas = new PrincipalQuotas(ApiAccess.defaults().withMaxSendsPerSecondPerPrincipal(4),
                now::get);
        assertTrue(quotas.openConnection(ALICE));
        for (int i = 0; i < 4; i++) {
            assertTrue(quotas.trySend(ALICE), "the burst of one second's worth, send " + i);
        }
        assertFalse(quotas.trySend(ALICE));
        now.addAndGet(250_000_000L);
        assertTrue(quotas.trySend(ALICE), "a quarter second later, one more");
        assertFalse(quotas.trySend(ALICE));
        now.addAndGet(60_000_000_000L);
        for (int i = 0; i < 4; i++) {
            assertTrue(quotas.trySend(ALICE), "an idle minute fills the bucket, no more: send " + i);
        }
        assertFalse(quotas.trySend(ALICE));
        PrincipalQuotas unlimited = new PrincipalQuotas(ApiAccess.defaults(), now::get);
        assertTrue(unlimited.trySend(BOB), "0 = unlimited");
    }
}
