package io.ricochet.control.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.codec.Messages;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaCursorTest {
    private static final InetSocketAddress A = Messages.address("10.0.0.1", 7100);
    private static final InetSocketAddress B = Messages.address("10.0.0.2", 7100);
    private static final InetSocketAddress C = Messages.address("10.0.0.3", 7100);
    private static final InetSocketAddress UNLISTED = Messages.address("10.0.0.9", 7100);

    @Test
    void shouldStartAtTheFirstAndGoRoundRobinOnFailures() {
        ReplicaCursor cursor = new ReplicaCursor(List.of(A, B, C));
        List<InetSocketAddress> targets = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            targets.add(cursor.target());
            cursor.failed();
        }
        assertEquals(List.of(A, B, C, A, B), targets);
    }

    @Test
    void shouldFollowARedirectListedOrNot() {
        ReplicaCursor cursor = new ReplicaCursor(List.of(A, B, C));
        assertTrue(cursor.redirected(UNLISTED));
        assertEquals(UNLISTED, cursor.target());
        cursor.serving();
        cursor.failed();
        assertEquals(B, cursor.target(), "the unlisted leader failed: on through the list");
    }

    @Test
    void shouldSkipTheLeaderThatJustFailed() {
        ReplicaCursor cursor = new ReplicaCursor(List.of(A, B, C));
        cursor.redirected(B);
        cursor.serving();
        cursor.failed();
        assertEquals(C, cursor.target(), "B failed; not B again at once");
    }

    @Test
    void shouldNotBeHeldByAStaleReplicaPointingAtADeadLeader() {
        ReplicaCursor cursor = new ReplicaCursor(List.of(A, B, C));
        cursor.failed();
        assertEquals(B, cursor.target(), "A, the leader, died");
        cursor.redirected(A);
        cursor.failed();
        assertEquals(C, cursor.target(), "B's stale redirect to A led nowhere: C next, not B again");
    }

    @Test
    void shouldTakeAsManyRedirectsInARowAtOnceAsThereAreReplicas() {
        ReplicaCursor cursor = new ReplicaCursor(List.of(A, B));
        assertTrue(cursor.redirected(B));
        assertTrue(cursor.redirected(A));
        assertFalse(cursor.redirected(B), "a loop: wait");
        assertFalse(cursor.redirected(A));
        cursor.serving();
        assertTrue(cursor.redirected(B), "counted from zero after SERVING");
        cursor.redirected(A);
        cursor.failed();
        assertTrue(cursor.redirected(A), "and after a failure");
    }

    @Test
    void shouldKeepASingleReplica() {
        ReplicaCursor cursor = new ReplicaCursor(List.of(A));
        cursor.failed();
        assertEquals(A, cursor.target());
        assertTrue(cursor.redirected(UNLISTED));
        assertFalse(cursor.redirected(A));
    }

    @Test
    void shouldRefuseNoReplicaOrOneTwice() {
        assertThrows(IllegalArgumentException.class, () -> new ReplicaCursor(List.of()));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaCursor(List.of(A, B, A)));
    }
}
