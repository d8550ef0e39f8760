package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import org.junit.jupiter.api.Test;

class FrameSourceTest {
    @Test
    void shouldGoRoundRobinWithOwnSeqnosPerGroup() {
        int[] groups = {100, 200, 300};
        RetransmitRing ring = new RetransmitRing(groups.length, 8, DataFlyweight.DATA_HEADER_LENGTH + 1024);
        FrameSource source = new FrameSource(42, groups, 1024, ring);
        DataFlyweight data = new DataFlyweight();
        for (int i = 0; i < 7; i++) {
            int slot = source.next();
            assertEquals(i % 3, source.lastGroupIndex());
            assertEquals(DataFlyweight.DATA_HEADER_LENGTH + 1024, ring.length(slot));
            assertTrue(FrameValidator.isValid(ring.frame(slot), 0, ring.length(slot)));
            data.wrap(ring.frame(slot), 0);
            assertEquals(FrameType.DATA, data.type());
            assertEquals(42, data.source());
            assertEquals(42, data.origin());
            assertEquals(groups[i % 3], data.group());
            assertEquals(i / 3, data.seqno());
            assertEquals(0, ring.frame(slot)[data.payloadOffset()], "one message, as a daemon writes it");
        }
        assertEquals(2, source.highestSeqno(0));
        assertEquals(1, source.highestSeqno(1));
        assertEquals(1, source.highestSeqno(2));
        assertEquals(7, source.framesWritten());
    }

    @Test
    void shouldSendRunsOfFramesToEachGroupInTurn() {
        int[] groups = {100, 200};
        RetransmitRing ring = new RetransmitRing(groups.length, 8, DataFlyweight.DATA_HEADER_LENGTH + 10);
        FrameSource source = new FrameSource(7, groups, 10, ring, 3);
        DataFlyweight data = new DataFlyweight();
        int[] expectedGroup = {0, 0, 0, 1, 1, 1, 0, 0};
        long[] expectedSeqno = {0, 1, 2, 0, 1, 2, 3, 4};
        for (int i = 0; i < expectedGroup.length; i++) {
            int slot = source.next();
            assertEquals(expectedGroup[i], source.lastGroupIndex(), "frame " + i);
            data.wrap(ring.frame(slot), 0);
            assertEquals(groups[expectedGroup[i]], data.group(), "frame " + i);
            assertEquals(expectedSeqno[i], data.seqno(), "frame " + i);
        }
        assertThrows(IllegalArgumentException.class, () -> new FrameSource(7, groups, 10, ring, 0));
    }

    @Test
    void shouldReportNoSeqnoBeforeTheFirstFrame() {
        FrameSource source = new FrameSource(1, new int[] {5}, 1, new RetransmitRing(1, 1, 64));
        assertEquals(-1, source.highestSeqno(0));
        assertEquals(-1, source.lastGroupIndex());
    }

    @Test
    void shouldRefuseBadSettings() {
        RetransmitRing ring = new RetransmitRing(1, 1, 64);
        assertThrows(IllegalArgumentException.class, () -> new FrameSource(1, new int[0], 10, ring));
        assertThrows(IllegalArgumentException.class, () -> new FrameSource(1, new int[] {1}, 0, ring),
                "no room for the kind byte");
        assertThrows(IllegalArgumentException.class,
                () -> new FrameSource(1, new int[] {1}, DataFlyweight.MAX_PAYLOAD + 1, ring));
    }
}
