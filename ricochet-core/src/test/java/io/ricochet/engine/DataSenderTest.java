package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DataSenderTest {
    private final Counters counters = new Counters(Counters.set(EngineCounter.values()));
    private final RecordingOutbox outbox = new RecordingOutbox();
    private final DataSender sender = new DataSender(3, 100, counters, outbox);

    @Test
    void eachGroupNumbersItsPacketsFromZero() {
        assertEquals(0, sender.send(true, 7, new byte[] {1}, 0, 1));
        assertEquals(1, sender.send(true, 7, new byte[] {2}, 0, 1));
        assertEquals(0, sender.send(true, 8, new byte[] {3}, 0, 1));
        assertEquals(2, sender.sentTo(7));
        assertEquals(1, sender.sentTo(8));
        assertEquals(0, sender.sentTo(9));
        assertEquals(3, counters.get(EngineCounter.DATA_SENT));
    }

    @Test
    void thePacketGoesOutAsADataFrameToItsGroup() {
        byte[] payload = {9, 8, 7, 6};
        sender.send(true, 7, payload, 1, 2);
        RecordingOutbox.Sent sent = outbox.sent.get(0);
        assertTrue(sent.multicast());
        assertEquals(7, sent.to());
        assertEquals(FrameType.DATA, sent.type());
        DataFlyweight data = new DataFlyweight().wrap(sent.frame(), 0);
        assertEquals(3, data.origin());
        assertEquals(7, data.group());
        assertEquals(0, data.seqno());
        assertArrayEquals(new byte[] {8, 7}, Arrays.copyOfRange(sent.frame(), DataFlyweight.DATA_HEADER_LENGTH,
                DataFlyweight.DATA_HEADER_LENGTH + 2));
    }

    @Test
    void aNonMemberOrAnOversizedPayloadIsRefusedAndNothingIsSent() {
        IllegalStateException notMember = assertThrows(IllegalStateException.class,
                () -> sender.send(false, 7, new byte[1], 0, 1));
        assertEquals("node 3 is not a member of group 7", notMember.getMessage());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> sender.send(true, 7, new byte[101], 0, 101));
        assertEquals("payload of 101 bytes; the maximum is 100", tooLong.getMessage());
        assertTrue(outbox.sent.isEmpty());
        assertEquals(0, sender.sentTo(7));
        assertEquals(0, counters.get(EngineCounter.DATA_SENT));
    }
}
