package io.ricochet.control.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictQueueTest {

    @Test
    void shouldKeepOnlyTheLatestVerdictOfEachSubjectInReportOrder() {
        VerdictQueue queue = new VerdictQueue(8);
        queue.offer(new NodeFailed(1));
        queue.offer(new DetectorFailed("rack-1"));
        queue.offer(new NodeFailed(2));
        queue.offer(new NodeRecovered(1));
        queue.offer(new DetectorRecovered("rack-1"));
        assertEquals(List.of(new NodeFailed(2), new NodeRecovered(1), new DetectorRecovered("rack-1")),
                verdicts(queue.takeUnwritten()));
        assertEquals(3, queue.size());
        assertEquals(0, queue.dropped());
    }

    @Test
    void shouldTellNodesAndDetectorsApart() {
        VerdictQueue queue = new VerdictQueue(8);
        queue.offer(new NodeFailed(7));
        queue.offer(new DetectorFailed("7"));
        assertEquals(2, queue.size());
    }

    @Test
    void shouldWriteEveryVerdictOncePerSessionAndAllAgainOnTheNext() {
        VerdictQueue queue = new VerdictQueue(8);
        queue.offer(new NodeFailed(1));
        queue.offer(new NodeFailed(2));
        assertEquals(2, queue.takeUnwritten().size());
        assertEquals(List.of(), queue.takeUnwritten(), "nothing twice on one session");
        queue.offer(new NodeFailed(3));
        assertEquals(List.of(new NodeFailed(3)), verdicts(queue.takeUnwritten()));

        queue.connectionLost();

        assertEquals(List.of(new NodeFailed(1), new NodeFailed(2), new NodeFailed(3)),
                verdicts(queue.takeUnwritten()), "a written verdict is not done: the next leader hears it too");
    }

    @Test
    void shouldWriteANewVerdictOfASubjectButNotARepeatOnTheSameSession() {
        VerdictQueue queue = new VerdictQueue(8);
        queue.offer(new NodeFailed(1));
        queue.takeUnwritten();
        queue.offer(new NodeFailed(1));
        assertEquals(List.of(), queue.takeUnwritten());
        queue.offer(new NodeRecovered(1));
        assertEquals(List.of(new NodeRecovered(1)), verdicts(queue.takeUnwritten()));
    }

    @Test
    void shouldEvictTheOldestSubjectWhenFullAndCountItAsDroppedIfNeverWritten() {
        VerdictQueue queue = new VerdictQueue(2);
        assertNull(queue.offer(new NodeFailed(1)));
        assertNull(queue.offer(new NodeFailed(2)));
        assertNull(queue.offer(new NodeRecovered(1)), "a new verdict of a held subject takes no room");
        assertEquals(new NodeFailed(2), queue.offer(new NodeFailed(3)));
        assertEquals(1, queue.dropped());
        assertEquals(List.of(new NodeRecovered(1), new NodeFailed(3)), verdicts(queue.takeUnwritten()));
    }

    @Test
    void shouldRetireAnEvictedVerdictThatWasWrittenWithoutCountingItDropped() {
        VerdictQueue queue = new VerdictQueue(1);
        queue.offer(new NodeFailed(1));
        queue.takeUnwritten();
        queue.connectionLost();
        assertNull(queue.offer(new NodeFailed(2)));
        assertEquals(0, queue.dropped());
        assertEquals(1, queue.retired());
        assertEquals(List.of(new NodeFailed(2)), verdicts(queue.takeUnwritten()));
    }

    @Test
    void shouldForgetANodesVerdictWrittenOrNotAndNeverWriteItAgain() {
        VerdictQueue queue = new VerdictQueue(8);
        queue.offer(new NodeFailed(1));
        queue.offer(new DetectorFailed("1"));
        queue.offer(new NodeFailed(2));
        queue.takeUnwritten();
        queue.offer(new NodeFailed(3));

        assertTrue(queue.forget(1), "written on this session");
        assertTrue(queue.forget(3), "never written");
        assertFalse(queue.forget(1), "already forgotten");
        assertFalse(queue.forget(4), "never held");
        assertEquals(List.of(), queue.takeUnwritten(), "node 3's verdict is not written either");
        queue.connectionLost();

        assertEquals(List.of(new DetectorFailed("1"), new NodeFailed(2)), verdicts(queue.takeUnwritten()),
                "the next leader hears neither node 1 nor node 3, but still detector '1' and node 2");
        assertEquals(2, queue.size());
        assertEquals(0, queue.dropped(), "forgetting loses nothing the detector still stands by");
        assertEquals(0, queue.retired());
    }

    @Test
    void shouldTakeANewVerdictOfAForgottenNodeAsANewSubject() {
        VerdictQueue queue = new VerdictQueue(2);
        queue.offer(new NodeFailed(1));
        queue.takeUnwritten();
        queue.forget(1);
        queue.offer(new NodeFailed(2));

        assertNull(queue.offer(new NodeRecovered(1)), "forgetting freed node 1's room: nothing evicted");
        assertEquals(List.of(new NodeFailed(2), new NodeRecovered(1)), verdicts(queue.takeUnwritten()));
    }

    @Test
    void shouldRefuseWhatIsNotAVerdict() {
        VerdictQueue queue = new VerdictQueue(1);
        assertThrows(IllegalArgumentException.class, () -> queue.offer(new Leave(1, 2)));
        assertThrows(IllegalArgumentException.class, () -> new VerdictQueue(0));
    }

    private static List<ControlMessage> verdicts(List<VerdictQueue.Entry> entries) {
        return entries.stream().map(e -> e.verdict).toList();
    }
}
