package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.MalformedFrameException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DropLedgerTest {
    private static final int GROUP = 7;
    private static final long D = 4096;

    private final DropLedger ledger = new DropLedger(16);

    @Test
    void shouldJoinTheMessagesOfADatagramAndTheNextDatagramsIntoOneRun() {
        ledger.record(1, GROUP, D, D);                 // a bundle: messages 0, 1, 2 of datagram 1
        ledger.record(1, GROUP, D + 1, D + 1);
        ledger.record(1, GROUP, D + 2, D + 2);
        ledger.record(1, GROUP, 2 * D, 3 * D - 1);     // datagram 2, a dropped LOST: all of it
        ledger.record(1, GROUP, 3 * D, 3 * D);         // datagram 3, its first message

        assertEquals(Set.of(new ApiPush.Dropped(1, GROUP, D, 3 * D)), drain());
        assertTrue(ledger.isEmpty());
    }

    @Test
    void shouldStartANewRunWhereSomethingOfTheStreamMayLieBetween() {
        ledger.record(1, GROUP, 0, 0);
        ledger.record(1, GROUP, 2 * D, 2 * D);         // datagram 1 missing: it may yet be delivered
        ledger.record(1, GROUP, 3 * D + 1, 3 * D + 1); // not the first message of datagram 3
        ledger.record(1, GROUP, D, D);                 // datagram 1 after all, recovered late

        assertEquals(Set.of(new ApiPush.Dropped(1, GROUP, 0, 0), new ApiPush.Dropped(1, GROUP, 2 * D, 2 * D),
                new ApiPush.Dropped(1, GROUP, 3 * D + 1, 3 * D + 1), new ApiPush.Dropped(1, GROUP, D, D)), drain());
    }

    @Test
    void shouldKeepStreamsApart() {
        ledger.record(1, GROUP, 0, 0);
        ledger.record(2, GROUP, D, D);
        ledger.record(1, GROUP + 1, 5 * D, 5 * D);
        ledger.record(1, GROUP, D, D);
        ledger.record(2, GROUP, 2 * D, 2 * D);

        assertEquals(Set.of(new ApiPush.Dropped(1, GROUP, 0, D), new ApiPush.Dropped(2, GROUP, D, 2 * D),
                new ApiPush.Dropped(1, GROUP + 1, 5 * D, 5 * D)), drain());
    }

    @Test
    void shouldCountWhatItCannotNameOnceFullAndNameAgainOnceDrained() {
        DropLedger small = new DropLedger(2);
        assertTrue(small.record(1, GROUP, 0, 0));
        assertTrue(small.record(2, GROUP, 0, 0));
        assertFalse(small.record(3, GROUP, 0, 0));
        assertTrue(small.record(1, GROUP, 1, 1), "joining a run held needs no room");
        assertEquals(1, small.unnamed());

        ByteBuf out = Unpooled.buffer();
        assertEquals(2, small.drain(out));
        out.release();
        assertTrue(small.record(3, GROUP, 0, 0));
    }

    @Test
    void shouldRefuseAnEmptyLedger() {
        assertThrows(IllegalArgumentException.class, () -> new DropLedger(0));
    }

    private Set<ApiFrame> drain() {
        ByteBuf out = Unpooled.buffer();
        int frames = ledger.drain(out);
        Set<ApiFrame> read = new HashSet<>();
        try {
            while (out.isReadable()) {
                read.add(ApiFrameCodec.decode(out.readSlice(out.readInt())));
            }
        } catch (MalformedFrameException e) {
            throw new AssertionError("the ledger wrote a malformed frame", e);
        } finally {
            out.release();
        }
        assertEquals(frames, read.size());
        return read;
    }
}
