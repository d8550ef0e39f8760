package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leader's bound on the groups one daemon's session may be in: refused before the log, counted. */
class DaemonRequestsTest {
    private static final int NODE = 7;
    private static final int LIMIT = 3;

    private final GmsCounters counters = new GmsCounters();
    private final SessionTable sessions = new SessionTable(counters);
    private final List<ControlMessage> logged = new ArrayList<>();
    private final DaemonRequests requests = new DaemonRequests(new Partitioning(0, 1), sessions, counters,
            (channel, request) -> logged.add(request), LIMIT);

    private EmbeddedChannel registered() {
        EmbeddedChannel channel = new EmbeddedChannel();
        sessions.open(channel);
        sessions.claim(NODE, channel);
        return channel;
    }

    @Test
    void shouldRefuseAJoinPastTheLimitUntilTheSessionLeavesAGroup() throws Exception {
        EmbeddedChannel channel = registered();
        for (int group = 0; group < LIMIT; group++) {
            requests.onJoin(channel, new Join(group, NODE, 0));
        }
        requests.onJoin(channel, new Join(1, NODE, 0));   // a repeat is no new group

        GmsRefusal refusal = assertThrows(GmsRefusal.class, () -> requests.onJoin(channel, new Join(9, NODE, 0)));
        assertEquals(ErrorCode.TOO_MANY_GROUPS, refusal.code());
        assertTrue(refusal.getMessage().contains("node 7 is in 3 groups of partition 0")
                && refusal.getMessage().contains("max-groups"), refusal.getMessage());
        assertEquals(1, counters.get(GmsCounter.GROUP_LIMIT_REFUSALS));
        assertEquals(LIMIT + 1, logged.size(), "the refused JOIN never reached the log");

        requests.onLeave(channel, new Leave(0, NODE));
        requests.onJoin(channel, new Join(9, NODE, 0));
        assertEquals(new Join(9, NODE, 0), logged.get(logged.size() - 1));
    }

    @Test
    void shouldRefuseAHundredThousandJoinsWithoutKeepingAnything() throws Exception {
        EmbeddedChannel channel = registered();
        for (int group = 0; group < 100_000; group++) {
            try {
                requests.onJoin(channel, new Join(group, NODE, 0));
            } catch (GmsRefusal refusal) {
                assertEquals(ErrorCode.TOO_MANY_GROUPS, refusal.code());
            }
        }
        assertEquals(100_000 - LIMIT, counters.get(GmsCounter.GROUP_LIMIT_REFUSALS));
        assertEquals(LIMIT, logged.size());
        assertEquals(LIMIT, counters.get(GmsCounter.JOINS));
    }

    @Test
    void shouldCountEachSessionOnItsOwn() throws Exception {
        EmbeddedChannel first = registered();
        for (int group = 0; group < LIMIT; group++) {
            requests.onJoin(first, new Join(group, NODE, 0));
        }
        first.close();
        EmbeddedChannel second = registered();   // the daemon reconnected: it joins its groups again
        for (int group = 0; group < LIMIT; group++) {
            requests.onJoin(second, new Join(group, NODE, 0));
        }
        assertEquals(0, counters.get(GmsCounter.GROUP_LIMIT_REFUSALS));
    }
}
