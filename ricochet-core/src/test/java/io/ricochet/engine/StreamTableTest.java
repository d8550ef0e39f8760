package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class StreamTableTest {
    private final StreamTable streams = new StreamTable(256);

    @Test
    void shouldStartAStreamSeenJoiningAtZero() {
        assertNull(streams.joined(4, 1, 7, true, true));

        StreamTable.Stream stream = streams.find(4, 1);
        assertEquals(0, stream.window().base());
        assertEquals(7, stream.incarnation());
        assertSame(stream, streams.getOrCreate(4, 1, 500));
    }

    @Test
    void shouldStartAStreamFirstSeenMidWayWhereItWasSeen() {
        assertEquals(500, streams.getOrCreate(4, 1, 500).window().base());
        assertEquals(0, streams.getOrCreate(5, 1, ReceiveWindow.YOUNG_STREAM_SEQNOS - 1).window().base());
    }

    @Test
    void shouldNotStartAStreamForASenderListedBeforeThisNodeJoined() {
        assertNull(streams.joined(4, 1, 7, true, false));

        assertNull(streams.find(4, 1));
        StreamTable.Stream later = streams.getOrCreate(4, 1, 900);
        assertEquals(900, later.window().base());
        assertEquals(7, later.incarnation(), "the incarnation of the last JOIN seen");
    }

    @Test
    void shouldKeepTheStreamWhenTheSameIncarnationFlaps() {
        streams.joined(4, 1, 7, true, true);
        StreamTable.Stream stream = streams.find(4, 1);
        stream.window().resolve(0);

        assertNull(streams.joined(4, 1, 7, true, true));

        assertSame(stream, streams.find(4, 1));
        assertEquals(1, stream.window().base());
    }

    @Test
    void shouldRestartTheStreamOfANewIncarnationAndReturnTheOldOne() {
        streams.joined(4, 1, 7, true, true);
        StreamTable.Stream old = streams.find(4, 1);
        old.window().resolve(0);

        assertSame(old, streams.joined(4, 1, 8, false, true));

        StreamTable.Stream fresh = streams.find(4, 1);
        assertNotSame(old, fresh);
        assertEquals(0, fresh.window().base());
        assertEquals(8, fresh.incarnation());
    }

    @Test
    void shouldNotStartAStreamForAKnownMemberWithoutAStream() {
        assertNull(streams.joined(4, 1, 7, false, true));
        assertNull(streams.find(4, 1));
    }

    @Test
    void shouldKeyStreamsByOriginAndGroupAlone() {
        assertEquals(StreamTable.key(1, 2), StreamTable.key(1, 2));
        assertNotEquals(StreamTable.key(1, 2), StreamTable.key(2, 1));
        assertNotEquals(StreamTable.key(1, -1), StreamTable.key(2, -1));
        assertNotSame(streams.getOrCreate(1, 2, 0), streams.getOrCreate(2, 1, 0));
        assertEquals(2, streams.size());
    }
}
