package io.ricochet.pbcast;

import io.ricochet.engine.Counters;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.wire.HeaderFlyweight;
import java.util.Arrays;
import java.util.Comparator;
import java.util.random.RandomGenerator;

/**
 * The first phase of anti-entropy, run once per round: for each group this member belongs to and holds messages
 * of, a digest of those messages goes to {@code sub-gsize} members chosen at random (paper, Figure 4, "send_subg").
 * The digest lists, per sender, runs of consecutive seqnos held; a run also breaks where the gossip retransmit bit
 * changes (Pbcast-grb). A digest too long for one frame is sent as several frames of the same round.
 */
final class Gossiper {
    private static final Comparator<PacketId> ORDER = Comparator.comparingInt(PacketId::group)
            .thenComparingInt(PacketId::origin).thenComparingLong(PacketId::seqno);

    private final int self;
    private final int fanout;
    private final MessageBuffer buffer;
    private final RetransmitPolicy policy;
    private final GroupMembers members;
    private final RandomGenerator rng;
    private final Outbox outbox;
    private final Counters counters;
    private final byte[] frame = new byte[HeaderFlyweight.STANDARD_FRAME_LENGTH];
    private final DigestFlyweight digest = new DigestFlyweight().wrap(frame, 0);
    private final int[] targets;
    private int targetCount;

    Gossiper(int self, PbcastConfig config, MessageBuffer buffer, RetransmitPolicy policy, GroupMembers members,
             RandomGenerator rng, Outbox outbox, Counters counters) {
        this.self = self;
        this.fanout = config.fanout();
        this.buffer = buffer;
        this.policy = policy;
        this.members = members;
        this.rng = rng;
        this.outbox = outbox;
        this.counters = counters;
        this.targets = new int[fanout];
    }

    /** Gossips the buffer's contents for round {@code round}. */
    void gossip(long round) {
        Integer[] slots = sortedSlots();
        int i = 0;
        while (i < slots.length) {
            int group = buffer.id(slots[i]).group();
            int end = i;
            while (end < slots.length && buffer.id(slots[end]).group() == group) {
                end++;
            }
            if (members.isMember(group)) {
                targetCount = members.pick(group, fanout, rng, targets);
                if (targetCount > 0) {
                    gossipGroup(group, (int) round, slots, i, end);
                }
            }
            i = end;
        }
    }

    private Integer[] sortedSlots() {
        Integer[] slots = new Integer[buffer.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = buffer.slotAt(i);
        }
        Arrays.sort(slots, (a, b) -> ORDER.compare(buffer.id(a), buffer.id(b)));
        return slots;
    }

    /** Writes the runs of {@code slots[from, to)}, all of {@code group}, into as many frames as they need. */
    private void gossipGroup(int group, int round, Integer[] slots, int from, int to) {
        digest.start(self, group, round);
        int i = from;
        while (i < to) {
            PacketId first = buffer.id(slots[i]);
            boolean flag = policy.gossipFlag(buffer, slots[i]);
            int run = 1;
            while (i + run < to && run < DigestFlyweight.MAX_RUN && continues(first, run, flag, slots[i + run])) {
                run++;
            }
            if (!digest.hasRoom()) {
                send();
                digest.start(self, group, round);
            }
            digest.add(first.origin(), first.seqno(), run, flag ? DigestFlyweight.FLAG_RETRANSMITTED : 0);
            i += run;
        }
        send();
    }

    private boolean continues(PacketId first, int run, boolean flag, int slot) {
        PacketId id = buffer.id(slot);
        return id.origin() == first.origin() && id.seqno() == first.seqno() + run
                && policy.gossipFlag(buffer, slot) == flag;
    }

    private void send() {
        int length = digest.frameLength();
        for (int t = 0; t < targetCount; t++) {
            counters.increment(PbcastCounter.PBCAST_DIGESTS_SENT);
            outbox.unicast(targets[t], frame, 0, length);
        }
    }
}
