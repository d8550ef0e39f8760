package io.ricochet.lecnak;

import io.ricochet.engine.Outbox;
import io.ricochet.lec.MultiGroupView;
import io.ricochet.nak.SessionAnnouncer;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import io.ricochet.wire.StreamListFlyweight;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

/**
 * The SESSION announcements of one timer poll, sent in as few datagrams as the groups' members allow: the
 * announcements of groups whose members (as this node's view has them) are the same go in one SESSIONS frame,
 * multicast to one of those groups, since every member of each is a member of that one; and the pending
 * announcements of the other groups with those members go with them if they have waited half their wait
 * ({@link SessionAnnouncer#announceEarly}). A node in many groups with the same members (every node of a cluster in
 * every group, or QSM's regions: nodes with the same group memberships) then sends one datagram where it sent one
 * per group, and each member reads one: at 100 messages/s per node over 64 groups, announcements were more than half
 * the datagrams a daemon read. A group whose members no other group shares gets its SESSION when due, as before.
 *
 * <p>Views are eventually consistent: a node that joined a group but not, in this node's view yet, the group its
 * announcement rode on misses that announcement, as if it were lost; the announcer repeats it
 * ({@link io.ricochet.nak.SessionAnnouncer}), by then most often with the view caught up.
 */
final class SessionBatch {
    private static final IntArrayList EMPTY = new IntArrayList();

    private final int entriesPerFrame;
    private final int self;
    private final MultiGroupView view;
    private final Outbox outbox;
    private final byte[] frame = new byte[StreamListFlyweight.lengthOf(StreamListFlyweight.MAX_ENTRIES)];
    private final PacketRefFlyweight single = new PacketRefFlyweight().wrap(frame, 0);
    private final StreamListFlyweight several = new StreamListFlyweight().wrap(frame, 0);
    /** Due announcements by their group's members: groups and their highest seqnos, in the order announced. */
    private final Map<Set<Integer>, Entries> byMembers = new LinkedHashMap<>();
    private final List<Entries> spare = new ArrayList<>();
    /** This node's groups by their members, for the view of {@link #indexVersion}. */
    private final Map<Set<Integer>, IntArrayList> groupsByMembers = new HashMap<>();
    private final List<Set<Integer>> due = new ArrayList<>();
    private long indexVersion = -1;
    private int framesSent;

    /**
     * @param maxFrameLength the largest frame this node builds: a SESSIONS frame holds as many entries as fit it (at
     *                       least 41 at the smallest frame a node allows)
     */
    SessionBatch(int self, MultiGroupView view, Outbox outbox, int maxFrameLength) {
        this.entriesPerFrame = Math.min(StreamListFlyweight.MAX_ENTRIES,
                (maxFrameLength - StreamListFlyweight.ENTRIES_OFFSET) / StreamListFlyweight.ENTRY_LENGTH);
        this.self = self;
        this.view = view;
        this.outbox = outbox;
    }

    /** {@code group}'s announcement is due: this node's highest seqno there is {@code highestSeqno}. */
    void add(int group, long highestSeqno) {
        byMembers.computeIfAbsent(view.members(group), members -> take()).add(group, highestSeqno);
    }

    /**
     * Offers {@code announcer} every other group with the members of a group added since the last flush, to announce
     * early (through {@code handler}, which adds them here), then sends it all; returns the frames sent.
     */
    int flush(long nowNs, SessionAnnouncer announcer, SessionAnnouncer.Handler handler) {
        if (byMembers.isEmpty()) {
            return 0;
        }
        due.addAll(byMembers.keySet());
        for (Set<Integer> members : due) {
            IntArrayList sameMembers = groupsWith(members);
            for (int i = 0, n = sameMembers.size(); i < n; i++) {
                announcer.announceEarly(sameMembers.getInt(i), nowNs, handler);
            }
        }
        due.clear();
        framesSent = 0;
        for (Entries entries : byMembers.values()) {
            send(entries);
            entries.clear();
            spare.add(entries);
        }
        byMembers.clear();
        return framesSent;
    }

    private void send(Entries entries) {
        int count = entries.groups.size();
        if (count == 1) {
            int length = single.write(FrameType.SESSION, self, self, entries.groups.getInt(0), entries.seqnos.get(0));
            multicast(entries.groups.getInt(0), length);
            return;
        }
        for (int first = 0; first < count; first += entriesPerFrame) {
            several.beginSessions(self);
            for (int i = first; i < Math.min(count, first + entriesPerFrame); i++) {
                several.add(entries.groups.getInt(i), entries.seqnos.getLong(i));
            }
            multicast(entries.groups.getInt(first), several.finish());
        }
    }

    private void multicast(int group, int length) {
        outbox.multicast(group, frame, 0, length);
        framesSent++;
    }

    private IntArrayList groupsWith(Set<Integer> members) {
        if (indexVersion != view.version()) {
            indexVersion = view.version();
            groupsByMembers.clear();
            for (int group : view.myGroups()) {
                groupsByMembers.computeIfAbsent(Set.copyOf(view.members(group)), m -> new IntArrayList()).addInt(group);
            }
        }
        return groupsByMembers.getOrDefault(members, EMPTY);
    }

    private Entries take() {
        return spare.isEmpty() ? new Entries() : spare.remove(spare.size() - 1);
    }

    private static final class Entries {
        final IntArrayList groups = new IntArrayList();
        final LongArrayList seqnos = new LongArrayList();

        void add(int group, long seqno) {
            groups.addInt(group);
            seqnos.addLong(seqno);
        }

        void clear() {
            groups.clear();
            seqnos.clear();
        }
    }
}
