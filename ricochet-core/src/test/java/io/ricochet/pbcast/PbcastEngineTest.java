package io.ricochet.pbcast;

import static io.ricochet.pbcast.TestFrames.data;
import static io.ricochet.pbcast.TestFrames.digest;
import static io.ricochet.pbcast.TestFrames.retransmit;
import static io.ricochet.pbcast.TestFrames.solicit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.pbcast.TestFrames.Run;
import io.ricochet.wire.DataFlyweight;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One pbcast engine driven by hand-made frames: FIFO delivery, loss discovery and giving up, garbage collection,
 * solicitation and retransmission rules, and the frames of the optimizations. Node 1 is under test, in group
 * {@link #G} with nodes 0, 2 and 3.
 */
class PbcastEngineTest {
    private static final int G = 9;
    private static final PbcastConfig BASIC = PbcastConfig.builder().build();

    private static SingleEngine node(PbcastConfig config) {
        return new SingleEngine(config, 1, G, 0, 2, 3);
    }

    private static PacketId id(int origin, long seqno) {
        return new PacketId(origin, G, seqno);
    }

    @Test
    void shouldHoldLaterMessagesBackUntilTheGapIsFilled() {
        SingleEngine n = node(BASIC);
        n.receive(data(0, G, 0));
        n.receive(data(0, G, 2));
        n.receive(data(0, G, 3));
        assertEquals(List.of(0L), n.deliveredSeqnos());
        assertEquals(List.of(id(0, 1)), n.discovered(), "seqno 2 reveals seqno 1 missing");
        assertEquals(2, n.counter(PbcastCounter.PBCAST_HELD_BACK));
        n.receive(retransmit(2, 0, G, 1));
        assertEquals(List.of(0L, 1L, 2L, 3L), n.deliveredSeqnos());
        assertEquals(List.of(Delivery.DIRECT, Delivery.NAK, Delivery.DIRECT, Delivery.DIRECT),
                n.delivered().stream().map(SingleEngine.Delivered::how).toList());
        assertEquals(1, n.counter(EngineCounter.LOSSES_DETECTED));
        assertEquals(1, n.counter(EngineCounter.RECOVERED_BY_NAK));
        assertEquals(3, n.counter(EngineCounter.DATA_RECEIVED));
        assertEquals(4, n.counter(EngineCounter.DELIVERED));
    }

    @Test
    void shouldReportAMissingMessageLostAfterStableThresholdRoundsAndSkipIt() {
        SingleEngine n = node(PbcastConfig.builder().stableThreshold(3).build());
        n.receive(data(0, G, 0));
        n.receive(data(0, G, 2));
        for (int round = 1; round <= 3; round++) {
            n.fireRound();
        }
        assertEquals(List.of(), n.lost, "sought in round 0 and the 3 rounds after");
        assertEquals(4, n.fireRound());
        assertEquals(List.of(id(0, 1)), n.lost);
        assertEquals(List.of(0L, 2L), n.deliveredSeqnos(), "then skipped");
        assertEquals(1, n.counter(EngineCounter.UNRECOVERED));
        assertEquals(0, n.engine.missingMessages());
        n.receive(retransmit(2, 0, G, 1));
        assertEquals(1, n.counter(EngineCounter.DUPLICATES), "a copy after the give-up is dropped");
        assertEquals(2, n.delivered().size());
    }

    @Test
    void shouldGossipAMessageInStableThresholdRoundsThenCollectItAndGoIdle() {
        SingleEngine n = node(PbcastConfig.builder().stableThreshold(3).build());
        assertEquals(Long.MAX_VALUE, n.engine.nextDeadlineNs(), "nothing to gossip: no timer");
        n.receive(data(0, G, 0));
        for (int round = 1; round <= 3; round++) {
            n.fireRound();
        }
        assertEquals(1, n.engine.bufferedMessages(), "kept through round 3, to answer its last digest's requests");
        n.fireRound();
        List<SingleEngine.Sent> digests = n.sentOfType(PbcastFrameType.DIGEST);
        assertEquals(3, digests.size());
        for (int i = 0; i < digests.size(); i++) {
            DigestFlyweight d = digests.get(i).digest();
            assertEquals(i + 1, d.round());
            assertEquals(G, d.group());
            assertEquals(1, d.entryCount());
            assertEquals(0, d.entryOrigin(0));
            assertEquals(0, d.entryFirst(0));
            assertEquals(1, d.entryRun(0));
            assertTrue(List.of(0, 2, 3).contains(digests.get(i).to()));
        }
        assertEquals(0, n.engine.bufferedMessages());
        assertEquals(1, n.counter(PbcastCounter.PBCAST_GC_EXPIRED));
        assertEquals(Long.MAX_VALUE, n.engine.nextDeadlineNs(), "idle again: no timer");
    }

    @Test
    void shouldSolicitMostRecentFirstWithinLimitRequestsPerRound() {
        SingleEngine n = node(PbcastConfig.builder().limitRequests(3).build());
        n.receive(digest(2, G, 17, Run.of(0, 0, 10)));
        assertEquals(10, n.counter(EngineCounter.LOSSES_DETECTED), "the digest reveals 0..9 missing");
        assertEquals(List.of(9L, 8L, 7L), requestedSeqnos(n));
        for (SingleEngine.Sent s : n.sentOfType(PbcastFrameType.REQUEST)) {
            assertEquals(2, s.to(), "solicit the gossiper");
            assertEquals(17, s.solicit().argument(), "echo the gossiper's round");
        }
        assertEquals(1, n.counter(PbcastCounter.PBCAST_REQUEST_LIMIT_HIT));
        n.receive(digest(3, G, 4, Run.of(0, 0, 10)));
        assertEquals(3, n.counter(PbcastCounter.PBCAST_REQUESTS_SENT), "the round's budget is spent");
        n.receive(retransmit(2, 0, G, 9));
        n.receive(retransmit(2, 0, G, 8));
        n.fireRound();
        n.clear();
        n.receive(digest(2, G, 18, Run.of(0, 0, 10)));
        assertEquals(List.of(7L, 6L, 5L), requestedSeqnos(n), "a new round, a new budget; 7 is asked again");
    }

    @Test
    void shouldTakeTurnsBetweenStreamsAndNotAskForWhatItHas() {
        SingleEngine n = node(PbcastConfig.builder().limitRequests(5).build());
        n.receive(data(3, G, 1));
        n.receive(digest(2, G, 1, Run.of(0, 0, 3), Run.of(3, 0, 3), Run.of(1, 0, 4)));
        assertEquals(List.of(id(0, 2), id(3, 2), id(0, 1), id(3, 0), id(0, 0)), n.sentOfType(
                PbcastFrameType.REQUEST).stream().map(s -> id(s.solicit().origin(), s.solicit().seqno())).toList());
    }

    @Test
    void shouldRetransmitOnlyForRequestsOfItsCurrentRoundWithinLimitRetrans() {
        SingleEngine n = node(PbcastConfig.builder().limitRetrans(2).build());
        for (int i = 0; i < 3; i++) {
            n.send(G, 40 + i);
        }
        long round = n.fireRound();
        n.receive(solicit(PbcastFrameType.REQUEST, 2, 1, G, 0, (int) round));
        n.receive(solicit(PbcastFrameType.REQUEST, 3, 1, G, 1, (int) round - 1));
        n.receive(solicit(PbcastFrameType.REQUEST, 3, 1, G, 1, (int) round));
        n.receive(solicit(PbcastFrameType.REQUEST, 0, 1, G, 2, (int) round));
        n.receive(solicit(PbcastFrameType.REQUEST, 0, 1, G, 99, (int) round));
        List<SingleEngine.Sent> retransmits = n.sentOfType(PbcastFrameType.RETRANSMIT);
        assertEquals(List.of(2, 3), retransmits.stream().map(SingleEngine.Sent::to).toList());
        DataFlyweight first = new DataFlyweight().wrap(retransmits.get(0).frame(), 0);
        assertEquals(1, first.origin());
        assertEquals(0, first.seqno());
        assertEquals(40, first.payloadLength());
        assertEquals(1, n.counter(PbcastCounter.PBCAST_REQUESTS_STALE));
        assertEquals(1, n.counter(PbcastCounter.PBCAST_RETRANSMIT_LIMITED));
        assertEquals(1, n.counter(PbcastCounter.PBCAST_REQUESTS_NOT_BUFFERED));
        assertEquals(2, n.counter(PbcastCounter.PBCAST_RETRANSMITS_SENT));
        n.fireRound();
        n.receive(solicit(PbcastFrameType.REQUEST, 0, 1, G, 2, (int) round + 1));
        assertEquals(3, n.counter(PbcastCounter.PBCAST_RETRANSMITS_SENT), "a new round, a new budget");
    }

    @Test
    void shouldGossipItsRetransmitBitAndMulticastWhenAnotherMemberRetransmittedTooWithGrb() {
        SingleEngine n = node(PbcastConfig.builder().ipmc(true).grb(true).ipmcThreshold(3).build());
        n.send(G, 10);
        long round = n.fireRound();
        assertFalse(n.sentOfType(PbcastFrameType.DIGEST).get(0).digest().entryRetransmitted(0));
        n.receive(solicit(PbcastFrameType.REQUEST, 2, 1, G, 0, (int) round));
        assertEquals(1, n.counter(PbcastCounter.PBCAST_RETRANSMITS_SENT));
        n.clear();
        round = n.fireRound();
        assertTrue(n.sentOfType(PbcastFrameType.DIGEST).get(0).digest().entryRetransmitted(0), "bit R gossiped");
        n.receive(digest(3, G, 5, new Run(1, 0, 1, true)));
        n.receive(solicit(PbcastFrameType.REQUEST, 0, 1, G, 0, (int) round));
        assertEquals(1, n.counter(PbcastCounter.PBCAST_GRB_MULTICASTS));
        assertEquals(1, n.counter(PbcastCounter.PBCAST_IPMC_RETRANSMITS));
        SingleEngine.Sent multicast = n.sentOfType(PbcastFrameType.RETRANSMIT).get(0);
        assertTrue(multicast.multicast());
        assertEquals(G, multicast.to());
        n.clear();
        n.fireRound();
        assertFalse(n.sentOfType(PbcastFrameType.DIGEST).get(0).digest().entryRetransmitted(0), "bits reset");
    }

    @Test
    void shouldTellANeighbourAboutEachSolicitationWithPbcastLocal() {
        PbcastConfig local = PbcastConfig.builder().local(true).neighbourhood(Neighbourhood.racks(2)).build();
        SingleEngine n = node(local);
        n.receive(digest(2, G, 6, Run.of(3, 4, 1)));
        assertEquals(1, n.sentOfType(PbcastFrameType.REQUEST).size());
        List<SingleEngine.Sent> infos = n.sentOfType(PbcastFrameType.INFO);
        assertEquals(1, infos.size());
        assertEquals(0, infos.get(0).to(), "node 0 is node 1's only neighbour (rack 0)");
        assertEquals(2, infos.get(0).solicit().argument(), "the gossiper that has it");
        assertEquals(4, infos.get(0).solicit().seqno());
        n.clear();
        n.receive(digest(0, G, 6, Run.of(3, 5, 1)));
        assertEquals(List.of(), n.sentOfType(PbcastFrameType.INFO), "the gossiper is no neighbour to tell");
    }

    @Test
    void shouldAskTheGossiperToMulticastWhatItLacksOnInfo() {
        SingleEngine n = node(PbcastConfig.builder().local(true).build());
        n.receive(data(3, G, 0));
        n.receive(solicit(PbcastFrameType.INFO, 0, 3, G, 0, 2));
        assertEquals(List.of(), n.sentOfType(PbcastFrameType.MCAST), "it has seqno 0");
        n.receive(solicit(PbcastFrameType.INFO, 0, 3, G, 2, 2));
        List<SingleEngine.Sent> mcasts = n.sentOfType(PbcastFrameType.MCAST);
        assertEquals(1, mcasts.size());
        assertEquals(2, mcasts.get(0).to());
        assertEquals(2, mcasts.get(0).solicit().seqno());
        assertEquals(List.of(id(3, 1), id(3, 2)), n.discovered(), "the info reveals 1 and 2 missing");
    }

    @Test
    void shouldMulticastOnMcastRequestsAtTheThreshold() {
        SingleEngine n = node(PbcastConfig.builder().local(true).build());
        n.send(G, 10);
        n.receive(solicit(PbcastFrameType.MCAST, 0, 1, G, 0, 0));
        assertEquals(List.of(), n.sentOfType(PbcastFrameType.RETRANSMIT));
        n.receive(solicit(PbcastFrameType.MCAST, 2, 1, G, 0, 0));
        assertTrue(n.sentOfType(PbcastFrameType.RETRANSMIT).get(0).multicast());
        assertEquals(2, n.counter(PbcastCounter.PBCAST_MCASTS_RECEIVED));
    }

    @Test
    void shouldSplitADigestThatDoesNotFitOneFrame() {
        SingleEngine n = node(BASIC);
        for (int i = 0; i <= 100; i++) {
            n.receive(data(0, G, 2L * i));
        }
        long round = n.fireRound();
        List<SingleEngine.Sent> digests = n.sentOfType(PbcastFrameType.DIGEST);
        assertEquals(2, digests.size());
        assertEquals(digests.get(0).to(), digests.get(1).to(), "one target (sub-gsize 1), two frames");
        assertEquals(DigestFlyweight.MAX_ENTRIES, digests.get(0).digest().entryCount());
        assertEquals(101 - DigestFlyweight.MAX_ENTRIES, digests.get(1).digest().entryCount());
        assertEquals((int) round, digests.get(1).digest().round());
        assertEquals(200, digests.get(1).digest().entryFirst(101 - DigestFlyweight.MAX_ENTRIES - 1));
    }

    @Test
    void shouldGiveUpTheGapsBelowAHeldMessageWhenTheFullBufferEvictsIt() {
        SingleEngine n = node(PbcastConfig.builder().bufferCapacity(4).build());
        for (long seqno : new long[] {0, 2, 3, 4, 5}) {
            n.receive(data(0, G, seqno));
        }
        assertEquals(List.of(0L), n.deliveredSeqnos(), "evicting 0 is harmless: it was delivered");
        n.receive(data(0, G, 6));
        assertEquals(List.of(id(0, 1)), n.lost, "evicting held 2 gives up 1 first");
        assertEquals(List.of(0L, 2L, 3L, 4L, 5L, 6L), n.deliveredSeqnos());
        assertEquals(2, n.counter(PbcastCounter.PBCAST_BUFFER_EVICTIONS));
    }

    @Test
    void shouldCountAMulticastRetransmissionAheadOfAnyDigestAsDiscoveredAndRecovered() {
        SingleEngine n = node(BASIC);
        n.receive(retransmit(2, 0, G, 0));
        assertEquals(List.of(id(0, 0)), n.discovered());
        assertEquals(1, n.counter(EngineCounter.LOSSES_DETECTED));
        assertEquals(1, n.counter(EngineCounter.RECOVERED_BY_NAK));
        assertEquals(1, n.counter(EngineCounter.RETRANSMITS_RECEIVED));
        assertEquals(Delivery.NAK, n.delivered().get(0).how());
    }

    @Test
    void shouldRefuseForgedNonMemberAndOwnTraffic() {
        SingleEngine n = node(BASIC);
        n.receive(TestFrames.data(io.ricochet.wire.FrameType.DATA, 2, 0, G, 0));
        assertEquals(1, n.counter(EngineCounter.INVALID_PACKETS), "DATA whose origin is not its source");
        n.receive(data(0, G + 1, 0));
        n.receive(digest(0, G + 1, 1, Run.of(0, 0, 1)));
        n.receive(solicit(PbcastFrameType.REQUEST, 0, 1, G + 1, 0, 0));
        assertEquals(3, n.counter(EngineCounter.NON_MEMBER));
        n.receive(data(1, G, 0));
        assertEquals(1, n.counter(EngineCounter.DUPLICATES), "its own message looped back");
        n.receive(digest(2, G, 1, Run.of(7, 0, 5)));
        assertEquals(4, n.counter(EngineCounter.NON_MEMBER), "a digest naming a sender that is no member");
        assertEquals(List.of(), n.sentOfType(PbcastFrameType.REQUEST));
        assertEquals(List.of(), n.delivered());
    }

    @Test
    void shouldRefuseApplicationErrors() {
        SingleEngine n = node(PbcastConfig.builder().maxPayload(100).build());
        assertThrows(IllegalStateException.class, () -> n.send(G + 1, 10));
        assertThrows(IllegalArgumentException.class, () -> n.send(G, 101));
    }

    private static List<Long> requestedSeqnos(SingleEngine n) {
        return n.sentOfType(PbcastFrameType.REQUEST).stream().map(s -> s.solicit().seqno()).toList();
    }
}
