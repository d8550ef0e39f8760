package io.ricochet.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictQueueTest {

    @Test
    void shouldDropTheOldestAndCountWhenFull() {
        VerdictQueue queue = new VerdictQueue(2);
        assertNull(queue.offer(new NodeFailed(1)));
        assertNull(queue.offer(new NodeFailed(2)));
        assertEquals(new NodeFailed(1), queue.offer(new NodeFailed(3)));
        assertEquals(1, queue.dropped());
        assertEquals(List.of(new NodeFailed(2), new NodeFailed(3)), verdicts(queue.takeUnwritten()));
    }

    @Test
    void shouldWriteEachVerdictOnceUntilTheConnectionDrops() {
        VerdictQueue queue = new VerdictQueue(8);
        queue.offer(new NodeFailed(1));
        queue.offer(new NodeRecovered(1));
        List<VerdictQueue.Entry> first = queue.takeUnwritten();
        assertEquals(2, first.size());
        assertEquals(List.of(), queue.takeUnwritten());
        queue.confirm(first.get(0));
        queue.connectionLost();
        assertEquals(List.of(new NodeRecovered(1)), verdicts(queue.takeUnwritten()));
    }

    @Test
    void shouldIgnoreAConfirmationOfADroppedVerdict() {
        VerdictQueue queue = new VerdictQueue(1);
        queue.offer(new NodeFailed(1));
        VerdictQueue.Entry written = queue.takeUnwritten().get(0);
        queue.offer(new NodeFailed(2));
        queue.confirm(written);
        assertEquals(1, queue.size());
    }

    private static List<ControlMessage> verdicts(List<VerdictQueue.Entry> entries) {
        return entries.stream().map(e -> e.verdict).toList();
    }
}
