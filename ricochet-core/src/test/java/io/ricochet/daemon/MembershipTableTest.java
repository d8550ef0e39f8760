package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Group memberships spread over as few sockets as the per-socket limit allows. */
class MembershipTableTest {
    private static final int PORT = 7600;

    private static InetSocketAddress address(int last, int port) {
        return new InetSocketAddress("239.1." + (last >> 8) + "." + (last & 0xFF), port);
    }

    @Test
    void shouldFillEachSocketUpToTheLimitBeforeOpeningAnother() {
        MembershipTable table = new MembershipTable(3);
        for (int g = 0; g < 10; g++) {
            MembershipTable.Join join = table.join(g, address(g, PORT));
            assertEquals(g / 3, join.socket(), "group " + g);
            assertEquals(g % 3 == 0, join.newSocket(), "group " + g);
            assertTrue(join.newMembership());
        }
        assertEquals(4, table.sockets());
        assertEquals(10, table.memberships());
        for (int s = 0; s < 4; s++) {
            assertTrue(table.addressesOf(s).size() <= 3);
        }
    }

    @Test
    void shouldIgnoreAGroupJoinedTwiceOrLeftUnjoined() {
        MembershipTable table = new MembershipTable(2);
        table.join(1, address(1, PORT));
        assertNull(table.join(1, address(1, PORT)));
        assertNull(table.leave(99));
        assertEquals(1, table.groups());
    }

    @Test
    void shouldDropTheMembershipOnLeaveAndCloseASocketOnlyWithItsLast() {
        MembershipTable table = new MembershipTable(2);
        table.join(1, address(1, PORT));
        table.join(2, address(2, PORT));
        table.join(3, address(3, PORT));

        MembershipTable.Leave first = table.leave(1);
        assertEquals(0, first.socket());
        assertTrue(first.dropMembership());
        assertFalse(first.closeSocket());
        assertEquals(List.of(address(2, PORT)), table.addressesOf(0));

        MembershipTable.Leave last = table.leave(2);
        assertTrue(last.dropMembership());
        assertTrue(last.closeSocket());
        assertEquals(1, table.sockets());

        // The closed socket's number is free again, and a socket with room is reused before a new one opens.
        MembershipTable.Join again = table.join(4, address(4, PORT));
        assertEquals(1, again.socket());
        assertFalse(again.newSocket());
        MembershipTable.Join next = table.join(5, address(5, PORT));
        assertEquals(0, next.socket());
        assertTrue(next.newSocket());
    }

    @Test
    void shouldShareOneMembershipBetweenGroupsOfTheSameAddress() {
        MembershipTable table = new MembershipTable(4);
        InetSocketAddress shared = address(7, PORT);
        assertTrue(table.join(7, shared).newMembership());
        MembershipTable.Join wrapped = table.join(7 + 65_536, shared);
        assertFalse(wrapped.newMembership());
        assertEquals(1, table.memberships());

        MembershipTable.Leave one = table.leave(7);
        assertFalse(one.dropMembership(), "the other group still uses the address");
        MembershipTable.Leave other = table.leave(7 + 65_536);
        assertTrue(other.dropMembership());
        assertTrue(other.closeSocket());
        assertEquals(0, table.sockets());
    }

    @Test
    void shouldKeepGroupsOfDifferentPortsOnDifferentSockets() {
        MembershipTable table = new MembershipTable(8);
        assertEquals(0, table.join(1, address(1, PORT)).socket());
        MembershipTable.Join otherPort = table.join(2, address(2, PORT + 1));
        assertEquals(1, otherPort.socket());
        assertTrue(otherPort.newSocket());
    }

    @Test
    void shouldRefuseALimitBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> new MembershipTable(0));
    }
}
