package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.NakAckHeader2;
import org.junit.jupiter.api.Test;

class RecordingDiscardTest {
    private static final short NAKACK2_ID = ClassConfigurator.getProtocolId(NAKACK2.class);

    private static Message data(int sender, long counter) {
        return new BytesMessage(null, Payload.encode(sender, counter, 0, 64))
                .putHeader(NAKACK2_ID, NakAckHeader2.createMessageHeader(counter + 1));
    }

    private static List<Boolean> decisions(long seed, DropLog log) {
        RecordingDiscard discard = new RecordingDiscard(0.3, seed, 1, log);
        List<Boolean> dropped = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            dropped.add(discard.shouldDropUpMessage(data(2, i), null));
        }
        return dropped;
    }

    @Test
    void everyDroppedDataMessageIsRecordedAndNoOther() {
        DropLog log = new DropLog(4096);
        List<Boolean> dropped = decisions(5, log);
        long count = dropped.stream().filter(d -> d).count();
        assertTrue(count > 200 && count < 400, "about 30 % of 1000: " + count);
        assertEquals(count, log.droppedCount());
        for (int i = 0; i < dropped.size(); i++) {
            assertEquals(dropped.get(i), log.delivered(new DropLog.Key(2, i)), "message " + i);
        }
    }

    @Test
    void theSameSeedDropsTheSameMessages() {
        assertEquals(decisions(9, new DropLog(4096)), decisions(9, new DropLog(4096)));
    }

    @Test
    void ownMessagesRetransmissionsControlAndForeignPayloadsAreNeverDropped() {
        DropLog log = new DropLog(16);
        RecordingDiscard discard = new RecordingDiscard(0.99, 1, 1, log);
        for (int i = 0; i < 100; i++) {
            assertFalse(discard.shouldDropUpMessage(data(1, i), null), "own message");
            assertFalse(discard.shouldDropUpMessage(new BytesMessage(null, Payload.encode(2, i, 0, 64)), null),
                    "no NAKACK2 header: not multicast data");
            assertFalse(discard.shouldDropUpMessage(new BytesMessage(null, Payload.encode(2, i, 0, 64))
                    .putHeader(NAKACK2_ID, NakAckHeader2.createXmitResponseHeader()), null), "a retransmission");
            assertFalse(discard.shouldDropUpMessage(new BytesMessage(null, new byte[64])
                    .putHeader(NAKACK2_ID, NakAckHeader2.createMessageHeader(i + 1)), null), "not a harness payload");
        }
        assertEquals(0, log.droppedCount());
    }

    @Test
    void aRateOutsideZeroToOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RecordingDiscard(1.0, 1, 1, new DropLog(1)));
        assertThrows(IllegalArgumentException.class, () -> new RecordingDiscard(-0.1, 1, 1, new DropLog(1)));
    }
}
