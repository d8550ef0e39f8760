package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.EngineCounter;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sample scenario of the paper's Figure 6, round by round, for basic pbcast (6a) and Pbcast-ipmc (6b). Five
 * members A..E; A multicasts M1, which only B receives, then M2, which everyone receives. sub-gsize = 1. Round 1:
 * A, B, C, D, E gossip to C, A, D, B, C; round 2: to E, C, A, A, D. The gossip targets are random choices of the
 * engines; the seeds that give the figure's choices are found once, deterministically, by {@link #findSeeds}.
 * (M1 and M2 are seqnos 0 and 1 of A's stream. The text's "threshold equals 0" contradicts the rest of its own
 * paragraph; the threshold is the paper's 2.)
 */
class Figure6ScenarioTest {
    private static final int A = 0;
    private static final int B = 1;
    private static final int C = 2;
    private static final int D = 3;
    private static final int E = 4;
    private static final int GROUP = 7;
    private static final long M1 = 0;
    private static final long M2 = 1;
    private static final long ROUND_NS = 100_000_000L;
    /** Per member: its gossip target in round 1 and in round 2. */
    private static final int[][] TARGETS = {{C, E}, {A, C}, {D, A}, {B, A}, {C, D}};
    private static final PbcastConfig BASIC = PbcastConfig.builder().build();
    private static final PbcastConfig IPMC = PbcastConfig.builder().ipmc(true).ipmcThreshold(2).build();

    private static long[] seeds;

    @BeforeAll
    static void findSeedsOnce() {
        seeds = findSeeds(BASIC);
    }

    /** A multicasts M1 (reaching only B), then M2 (reaching everyone). */
    private static ScriptedNetwork start(PbcastConfig config, long[] seeds) {
        ScriptedNetwork net = new ScriptedNetwork(config, GROUP, seeds);
        net.dropWhen(s -> ScriptedNetwork.isData(s) && s.to() >= C);
        assertEquals(M1, net.send(A, 100));
        net.dropWhen(s -> false);
        assertEquals(M2, net.send(A, 120));
        return net;
    }

    /**
     * Seeds, one per member, under which the members' own random choices of gossip target are the figure's. Each
     * engine draws its round phase and then one target per round from its own generator, whatever it receives, so
     * each member's seed is searched independently: 0, 1, 2, ... until its two targets match.
     */
    static long[] findSeeds(PbcastConfig config) {
        long[] candidate = new long[TARGETS.length];
        for (int attempt = 0; attempt < 10_000; attempt++) {
            ScriptedNetwork net = start(config, candidate);
            long t1 = net.nextRoundNs();
            net.fireRound(t1);
            net.fireRound(t1 + ROUND_NS);
            boolean all = true;
            for (int node = A; node <= E; node++) {
                String round1 = name(node) + "->" + name(TARGETS[node][0]);
                String round2 = name(node) + "->" + name(TARGETS[node][1]);
                if (!net.sent(1, PbcastFrameType.DIGEST).contains(round1)
                        || !net.sent(2, PbcastFrameType.DIGEST).contains(round2)) {
                    candidate[node]++;
                    all = false;
                }
            }
            if (all) {
                return candidate;
            }
        }
        return fail("no seeds give Figure 6's gossip targets");
    }

    private static String name(int node) {
        return ScriptedNetwork.name(node);
    }

    /** Everything up to the end of round 1, identical for both protocols; returns the time of round 1. */
    private static long assertRoundOne(ScriptedNetwork net) {
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(B), "B received both");
        for (int node = C; node <= E; node++) {
            assertEquals(List.of(), net.deliveredSeqnos(node), name(node) + " holds M2 back behind M1 (FIFO)");
            assertEquals(List.of(new PacketId(A, GROUP, M1)), net.discovered.get(node), "M2 reveals M1 missing");
        }
        long t1 = net.nextRoundNs();
        net.fireRound(t1);
        assertEquals(List.of("A->C", "B->A", "C->D", "D->B", "E->C"), net.sent(1, PbcastFrameType.DIGEST));
        assertEquals(List.of("C->A"), net.sent(1, PbcastFrameType.REQUEST), "only C hears from a holder of M1");
        assertEquals(List.of("A->C"), net.sent(1, PbcastFrameType.RETRANSMIT), "request counter 1: unicast");
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(C), "C recovers M1, then delivers M2");
        assertEquals(Delivery.NAK, net.delivered.get(C).get(0).how());
        assertEquals(List.of(), net.deliveredSeqnos(D));
        assertEquals(List.of(), net.deliveredSeqnos(E));
        return t1;
    }

    /** Round 2's gossip and request, identical for both protocols (D's digest from E predates E's recovery). */
    private static void assertRoundTwoGossip(ScriptedNetwork net) {
        assertEquals(List.of("A->E", "B->C", "C->A", "D->A", "E->D"), net.sent(2, PbcastFrameType.DIGEST));
        assertEquals(List.of("E->A"), net.sent(2, PbcastFrameType.REQUEST));
    }

    @Test
    void shouldRecoverOneMemberPerRoundWithBasicPbcast() {
        ScriptedNetwork net = start(BASIC, seeds);
        long t1 = assertRoundOne(net);
        net.fireRound(t1 + ROUND_NS);
        assertRoundTwoGossip(net);
        assertEquals(List.of("A->E"), net.sent(2, PbcastFrameType.RETRANSMIT), "basic pbcast: unicast again");
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(E));
        assertEquals(List.of(), net.deliveredSeqnos(D), "after round 2, D still lacks M1");
        assertEquals(1, net.engines[D].missingMessages());
        long round = t1 + 2 * ROUND_NS;
        while (net.deliveredSeqnos(D).isEmpty() && net.round() < BASIC.stableThreshold()) {
            net.fireRound(round);
            round += ROUND_NS;
        }
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(D), "D recovers M1 in a later round of gossip");
        assertEquals(0, net.engines[A].counters().get(PbcastCounter.PBCAST_IPMC_RETRANSMITS));
        assertTrue(net.lost.stream().allMatch(List::isEmpty), "nothing is reported lost");
    }

    @Test
    void shouldRecoverEveryMemberInRoundTwoWithPbcastIpmc() {
        ScriptedNetwork net = start(IPMC, seeds);
        long t1 = assertRoundOne(net);
        net.fireRound(t1 + ROUND_NS);
        assertRoundTwoGossip(net);
        assertEquals(List.of("A->*"), net.sent(2, PbcastFrameType.RETRANSMIT), "request counter 2: multicast");
        for (int node = B; node <= E; node++) {
            assertEquals(List.of(M1, M2), net.deliveredSeqnos(node), name(node) + " has delivered M1 and M2");
        }
        assertEquals(Delivery.NAK, net.delivered.get(D).get(0).how(), "D recovers M1 without asking");
        assertEquals(1, net.engines[A].counters().get(PbcastCounter.PBCAST_IPMC_RETRANSMITS));
        assertEquals(1, net.engines[B].counters().get(EngineCounter.DUPLICATES));
        assertEquals(1, net.engines[C].counters().get(EngineCounter.DUPLICATES));
        assertEquals(0, net.engines[D].counters().get(PbcastCounter.PBCAST_REQUESTS_SENT));
        assertTrue(net.delivered.stream().flatMap(List::stream).allMatch(ScriptedNetwork.Delivered::intact));
    }
}
