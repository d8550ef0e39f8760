package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Backpressure per session: past its requests in flight a session is not read and its messages wait in order; it
 * is read again once half are done.
 */
class SessionPacerTest {
    private final GmsCounters counters = new GmsCounters();
    private final SessionPacer pacer = new SessionPacer(4, counters);
    private final List<ControlMessage> handled = new ArrayList<>();

    /** Each message handled goes to the log, as JOIN and LEAVE do. */
    private void handle(Channel channel, ControlMessage message) {
        handled.add(message);
        pacer.started(channel);
    }

    @Test
    void shouldHoldMessagesInOrderPastTheBoundAndReadAgainAtHalf() {
        EmbeddedChannel channel = new EmbeddedChannel();
        List<ControlMessage> sent = new ArrayList<>();
        for (int g = 0; g < 10; g++) {
            ControlMessage m = g % 2 == 0 ? new Join(g, 1, 0) : new Leave(g - 1, 1);
            sent.add(m);
            pacer.offer(channel, m, this::handle);
        }
        assertEquals(sent.subList(0, 4), handled);
        assertFalse(channel.config().isAutoRead(), "not read past 4 in flight");
        assertEquals(1, counters.get(GmsCounter.SESSION_PAUSES));
        pacer.finished(channel);
        assertEquals(sent.subList(0, 5), handled, "one done, the next one waiting goes");
        for (int i = 0; i < 5; i++) {
            pacer.finished(channel);
        }
        assertEquals(sent, handled, "all handled, in the order sent");
        assertFalse(channel.config().isAutoRead(), "4 in flight: still not read");
        pacer.finished(channel);
        pacer.finished(channel);
        assertTrue(channel.config().isAutoRead(), "read again at half");
        assertEquals(2, pacer.inFlight(channel));
        assertEquals(1, counters.get(GmsCounter.SESSION_PAUSES));
    }

    @Test
    void shouldDropWhatWaitsWhenTheSessionCloses() {
        EmbeddedChannel channel = new EmbeddedChannel();
        for (int g = 0; g < 6; g++) {
            pacer.offer(channel, new Join(g, 1, 0), this::handle);
        }
        channel.close();
        pacer.finished(channel);
        assertEquals(4, handled.size());
    }
}
