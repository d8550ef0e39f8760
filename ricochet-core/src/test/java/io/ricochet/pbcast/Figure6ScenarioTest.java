package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ricochet.engine.Delivery;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.PacketId;
import io.ricochet.sim.ScenarioNetwork;
import io.ricochet.wire.FrameType;
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
    private static ScenarioNetwork start(PbcastConfig config, long[] seeds) {
        ScenarioNetwork net = new ScenarioNetwork(new PbcastProtocol(config), 0, true, seeds);
        net.group(GROUP, A, B, C, D, E);
        net.dropWhen(f -> f.type() == FrameType.DATA && f.to() >= C);
        assertEquals(M1, net.send(A, GROUP, 100));
        net.dropWhen(f -> false);
        assertEquals(M2, net.send(A, GROUP, 120));
        net.runUntil(net.now());
        return net;
    }

    /** The frames of {@code type} sent in round {@code round} (0: before the first), as "X->Y" ("X->*": multicast). */
    private static List<String> sent(ScenarioNetwork net, int round, int type) {
        return net.sent(type).stream().filter(f -> f.tick() == round)
                .map(f -> name(f.from()) + "->" + (f.to() < 0 ? "*" : name(f.to()))).toList();
    }

    /**
     * Seeds, one per member, under which the members' own random choices of gossip target are the figure's. Each
     * engine draws its round phase and then one target per round from its own generator, whatever it receives, so
     * each member's seed is searched independently: 0, 1, 2, ... until its two targets match.
     */
    static long[] findSeeds(PbcastConfig config) {
        long[] candidate = new long[TARGETS.length];
        for (int attempt = 0; attempt < 10_000; attempt++) {
            ScenarioNetwork net = start(config, candidate);
            long t1 = net.latestDeadlineNs();
            net.fireTimers(t1);
            net.fireTimers(t1 + ROUND_NS);
            boolean all = true;
            for (int node = A; node <= E; node++) {
                String round1 = name(node) + "->" + name(TARGETS[node][0]);
                String round2 = name(node) + "->" + name(TARGETS[node][1]);
                if (!sent(net, 1, PbcastFrameType.DIGEST).contains(round1)
                        || !sent(net, 2, PbcastFrameType.DIGEST).contains(round2)) {
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

    /** Node names as in the paper's figure: A, B, C, ... */
    private static String name(int node) {
        return String.valueOf((char) ('A' + node));
    }

    /** Everything up to the end of round 1, identical for both protocols; returns the time of round 1. */
    private static long assertRoundOne(ScenarioNetwork net) {
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(B), "B received both");
        for (int node = C; node <= E; node++) {
            assertEquals(List.of(), net.deliveredSeqnos(node), name(node) + " holds M2 back behind M1 (FIFO)");
            assertEquals(List.of(new PacketId(A, GROUP, M1)), net.discovered(node), "M2 reveals M1 missing");
        }
        long t1 = net.latestDeadlineNs();
        net.fireTimers(t1);
        assertEquals(List.of("A->C", "B->A", "C->D", "D->B", "E->C"), sent(net, 1, PbcastFrameType.DIGEST));
        assertEquals(List.of("C->A"), sent(net, 1, PbcastFrameType.REQUEST), "only C hears from a holder of M1");
        assertEquals(List.of("A->C"), sent(net, 1, PbcastFrameType.RETRANSMIT), "request counter 1: unicast");
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(C), "C recovers M1, then delivers M2");
        assertEquals(Delivery.NAK, net.delivered(C).get(0).how());
        assertEquals(List.of(), net.deliveredSeqnos(D));
        assertEquals(List.of(), net.deliveredSeqnos(E));
        return t1;
    }

    /** Round 2's gossip and request, identical for both protocols (D's digest from E predates E's recovery). */
    private static void assertRoundTwoGossip(ScenarioNetwork net) {
        assertEquals(List.of("A->E", "B->C", "C->A", "D->A", "E->D"), sent(net, 2, PbcastFrameType.DIGEST));
        assertEquals(List.of("E->A"), sent(net, 2, PbcastFrameType.REQUEST));
    }

    @Test
    void shouldRecoverOneMemberPerRoundWithBasicPbcast() {
        ScenarioNetwork net = start(BASIC, seeds);
        long t1 = assertRoundOne(net);
        net.fireTimers(t1 + ROUND_NS);
        assertRoundTwoGossip(net);
        assertEquals(List.of("A->E"), sent(net, 2, PbcastFrameType.RETRANSMIT), "basic pbcast: unicast again");
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(E));
        assertEquals(List.of(), net.deliveredSeqnos(D), "after round 2, D still lacks M1");
        assertEquals(1, ((PbcastEngine) net.engine(D)).missingMessages());
        long round = t1 + 2 * ROUND_NS;
        while (net.deliveredSeqnos(D).isEmpty() && net.tick() < BASIC.stableThreshold()) {
            net.fireTimers(round);
            round += ROUND_NS;
        }
        assertEquals(List.of(M1, M2), net.deliveredSeqnos(D), "D recovers M1 in a later round of gossip");
        assertEquals(0, net.engine(A).counters().get(PbcastCounter.PBCAST_IPMC_RETRANSMITS));
        for (int node = A; node <= E; node++) {
            assertEquals(List.of(), net.lost(node), "nothing is reported lost");
        }
    }

    @Test
    void shouldRecoverEveryMemberInRoundTwoWithPbcastIpmc() {
        ScenarioNetwork net = start(IPMC, seeds);
        long t1 = assertRoundOne(net);
        net.fireTimers(t1 + ROUND_NS);
        assertRoundTwoGossip(net);
        assertEquals(List.of("A->*"), sent(net, 2, PbcastFrameType.RETRANSMIT), "request counter 2: multicast");
        for (int node = B; node <= E; node++) {
            assertEquals(List.of(M1, M2), net.deliveredSeqnos(node), name(node) + " has delivered M1 and M2");
        }
        assertEquals(Delivery.NAK, net.delivered(D).get(0).how(), "D recovers M1 without asking");
        assertEquals(1, net.engine(A).counters().get(PbcastCounter.PBCAST_IPMC_RETRANSMITS));
        assertEquals(1, net.engine(B).counters().get(EngineCounter.DUPLICATES));
        assertEquals(1, net.engine(C).counters().get(EngineCounter.DUPLICATES));
        assertEquals(0, net.engine(D).counters().get(PbcastCounter.PBCAST_REQUESTS_SENT));
        for (int node = B; node <= E; node++) {
            assertTrue(net.delivered(node).stream().allMatch(ScenarioNetwork.Delivered::intact));
        }
    }
}
