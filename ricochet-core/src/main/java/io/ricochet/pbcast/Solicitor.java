package io.ricochet.pbcast;

import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The receiving side of the second phase: compares a digest with this member's own state and solicits what it
 * lacks from the gossiper, most recent first, within limit-requests per round (paper, Figure 4). The digest also
 * reveals missing messages, which are recorded as discovered. With Pbcast-local, each solicitation is paired with
 * an info message to a random neighbour, and an info message about a message this member lacks is answered with
 * an mcast request to the gossiper (Figure 9).
 *
 * <p>"Most recent first" is per stream: highest seqno first. Between streams the solicitations alternate, one per
 * stream in turn, so one long gap cannot starve the others.
 */
final class Solicitor {
    private final int self;
    private final PbcastConfig config;
    private final Receiver receiver;
    private final GroupMembers members;
    private final GossipRounds rounds;
    private final RandomGenerator rng;
    private final Outbox outbox;
    private final Counters counters;
    private final byte[] frame = new byte[SolicitFlyweight.LENGTH];
    private final SolicitFlyweight out = new SolicitFlyweight().wrap(frame, 0);

    Solicitor(int self, PbcastConfig config, Receiver receiver, GroupMembers members, GossipRounds rounds,
              RandomGenerator rng, Outbox outbox, Counters counters) {
        this.self = self;
        this.config = config;
        this.receiver = receiver;
        this.members = members;
        this.rounds = rounds;
        this.rng = rng;
        this.outbox = outbox;
        this.counters = counters;
    }

    /** A digest from {@code digest.source()} of a group this member belongs to. */
    void onDigest(DigestFlyweight digest, long nowNs) {
        List<MissingCursor> cursors = cursors(digest, nowNs);
        int gossiper = digest.source();
        boolean progress = true;
        while (progress) {
            progress = false;
            for (MissingCursor cursor : cursors) {
                long seqno = cursor.next();
                if (seqno < 0) {
                    continue;
                }
                if (!rounds.tryRequest()) {
                    counters.increment(PbcastCounter.PBCAST_REQUEST_LIMIT_HIT);
                    return;
                }
                progress = true;
                solicit(gossiper, cursor.stream(), seqno, digest.round());
            }
        }
    }

    /** One cursor per stream the digest lists, after recording what the digest reveals as missing. */
    private List<MissingCursor> cursors(DigestFlyweight digest, long nowNs) {
        Map<ReceiveStream, MissingCursor> byStream = new LinkedHashMap<>();
        int group = digest.group();
        for (int i = 0, n = digest.entryCount(); i < n; i++) {
            ReceiveStream stream = knownStream(digest.entryOrigin(i), group, digest.entryFirst(i));
            if (stream == null) {
                continue;
            }
            long last = digest.entryLast(i);
            long lastInWindow = stream.lastInWindow(config.streamWindow());
            if (last > lastInWindow) {
                counters.increment(EngineCounter.OUT_OF_WINDOW);
                last = lastInWindow;
            }
            long first = Math.max(digest.entryFirst(i), stream.window.base());
            if (last < first) {
                continue;
            }
            receiver.discoverUpTo(stream, last, rounds.round(), nowNs);
            byStream.computeIfAbsent(stream, s -> new MissingCursor(s, receiver)).add(first, last);
        }
        return new ArrayList<>(byStream.values());
    }

    /**
     * The stream of a sender named by a digest or an info message: an existing one, or a new one starting at
     * {@code firstSeen} if the sender is a member of the group; null for this node or an unknown sender, so a forged
     * frame cannot make this member track streams of nodes that do not exist.
     */
    private ReceiveStream knownStream(int origin, int group, long firstSeen) {
        if (origin == self) {
            return null; // our own messages: never lacking
        }
        ReceiveStream stream = receiver.stream(origin, group);
        if (stream == null && members.contains(group, origin)) {
            stream = receiver.stream(origin, group, firstSeen);
        }
        if (stream == null) {
            counters.increment(EngineCounter.NON_MEMBER);
        }
        return stream;
    }

    private void solicit(int gossiper, ReceiveStream stream, long seqno, int round) {
        int length = out.write(PbcastFrameType.REQUEST, self, stream.origin, stream.group, seqno, round);
        counters.increment(PbcastCounter.PBCAST_REQUESTS_SENT);
        outbox.unicast(gossiper, frame, 0, length);
        if (config.local()) {
            int neighbour = members.pickNeighbour(stream.group, gossiper, config.neighbourhood(), rng);
            if (neighbour >= 0) {
                length = out.write(PbcastFrameType.INFO, self, stream.origin, stream.group, seqno, gossiper);
                counters.increment(PbcastCounter.PBCAST_INFOS_SENT);
                outbox.unicast(neighbour, frame, 0, length);
            }
        }
    }

    /** Pbcast-local: "gossiper {@code info.argument()} has this message"; if this member lacks it, ask for mcast. */
    void onInfo(SolicitFlyweight info, long nowNs) {
        counters.increment(PbcastCounter.PBCAST_INFOS_RECEIVED);
        int gossiper = info.argument();
        ReceiveStream stream = knownStream(info.origin(), info.group(), info.seqno());
        if (stream == null || gossiper == self || info.seqno() > stream.lastInWindow(config.streamWindow())) {
            return;
        }
        if (!receiver.lacks(stream, info.seqno())) {
            return;
        }
        receiver.discoverUpTo(stream, info.seqno(), rounds.round(), nowNs);
        int length = out.write(PbcastFrameType.MCAST, self, info.origin(), info.group(), info.seqno(), 0);
        counters.increment(PbcastCounter.PBCAST_MCASTS_SENT);
        outbox.unicast(gossiper, frame, 0, length);
    }
}
