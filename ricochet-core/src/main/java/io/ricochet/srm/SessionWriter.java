package io.ricochet.srm;

import io.ricochet.engine.GroupRoster;
import io.ricochet.engine.StreamTable;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;

/**
 * Builds a group's session message in the engine's scratch frame: this node's highest seqno sent there and, when
 * sessions report what was heard, the highest seqno known from each other member's stream. A group with more
 * senders than {@link SrmSessionFlyweight#MAX_ENTRIES} is reported in turns, continuing after the last sender the
 * previous message listed.
 */
final class SessionWriter {
    private final int self;
    private final boolean reportsHeard;
    private final GroupRoster members;
    private final StreamTable streams;
    private final SrmSessionFlyweight out;
    /** Group -> the last sender listed, for groups too big for one message. */
    private final Map<Integer, Integer> cursors = new HashMap<>();
    private int count;

    SessionWriter(int self, boolean reportsHeard, GroupRoster members, StreamTable streams, byte[] frame) {
        this.self = self;
        this.reportsHeard = reportsHeard;
        this.members = members;
        this.streams = streams;
        this.out = new SrmSessionFlyweight().wrap(frame, 0);
    }

    /** Writes the session message of {@code group}; returns its length. */
    int write(int group, long highestSent) {
        count = 0;
        if (reportsHeard) {
            NavigableSet<Integer> all = members.others(group); // not this node: it has no stream of its own
            Integer cursor = cursors.remove(group);
            if (cursor == null) {
                addAll(group, all);
            } else {
                addAll(group, all.tailSet(cursor, false));
                addAll(group, all.headSet(cursor, true));
            }
        }
        out.writeStart(self, group, highestSent, count);
        return SrmSessionFlyweight.lengthFor(count);
    }

    private void addAll(int group, NavigableSet<Integer> senders) {
        for (int sender : senders) {
            if (count == SrmSessionFlyweight.MAX_ENTRIES) {
                cursors.put(group, out.entrySender(count - 1));
                return;
            }
            StreamTable.Stream stream = streams.find(sender, group);
            if (stream != null && stream.window().highest() >= 0) {
                out.entry(count++, sender, stream.window().highest());
            }
        }
    }
}
