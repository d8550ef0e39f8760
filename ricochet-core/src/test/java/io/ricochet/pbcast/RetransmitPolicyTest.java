package io.ricochet.pbcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.PacketId;
import io.ricochet.pbcast.RetransmitPolicy.Action;
import org.junit.jupiter.api.Test;

/** The decision rules of the paper's Figures 4, 5, 7 and 9 on one buffered message. */
class RetransmitPolicyTest {
    private static final boolean CURRENT = true;
    private static final boolean STALE = false;
    private static final boolean BUDGET = true;
    private static final boolean NO_BUDGET = false;

    private final MessageBuffer buffer = new MessageBuffer(4, 8, (slot, evicted) -> { });
    private final int slot = buffer.put(new PacketId(0, 1, 2), new byte[8], 0, 8, 0, false);

    private static RetransmitPolicy policy(boolean ipmc, boolean grb, int threshold) {
        return new RetransmitPolicy(PbcastConfig.builder().ipmc(ipmc).grb(grb).ipmcThreshold(threshold).build());
    }

    @Test
    void shouldUnicastOnlyForTheCurrentRoundWithinTheLimitInBasicPbcast() {
        RetransmitPolicy basic = policy(false, false, 2);
        assertEquals(Action.UNICAST, basic.onRequest(buffer, slot, CURRENT, BUDGET));
        assertEquals(Action.STALE_ROUND, basic.onRequest(buffer, slot, STALE, BUDGET));
        assertEquals(Action.LIMIT_REACHED, basic.onRequest(buffer, slot, CURRENT, NO_BUDGET));
        assertEquals(Action.UNICAST, basic.onRequest(buffer, slot, CURRENT, BUDGET), "never multicasts");
        assertFalse(basic.gossipFlag(buffer, slot), "no retransmit bits without grb");
    }

    @Test
    void shouldMulticastWhenTheRequestCounterReachesTheThresholdAndStartCountingAgain() {
        RetransmitPolicy ipmc = policy(true, false, 2);
        assertEquals(Action.UNICAST, ipmc.onRequest(buffer, slot, CURRENT, BUDGET));
        assertEquals(Action.MULTICAST, ipmc.onRequest(buffer, slot, CURRENT, BUDGET));
        assertEquals(0, buffer.requestCounter(slot));
        assertEquals(Action.UNICAST, ipmc.onRequest(buffer, slot, CURRENT, BUDGET));
    }

    @Test
    void shouldCountRefusedRequestsAndMulticastWhateverTheRoundAndBudgetAsFigure5Does() {
        RetransmitPolicy ipmc = policy(true, false, 2);
        assertEquals(Action.STALE_ROUND, ipmc.onRequest(buffer, slot, STALE, BUDGET));
        assertEquals(Action.MULTICAST, ipmc.onRequest(buffer, slot, STALE, NO_BUDGET));
    }

    @Test
    void shouldMulticastWhenThisMemberAndAnotherRetransmittedWithGrb() {
        RetransmitPolicy grb = policy(true, true, 3);
        assertEquals(Action.UNICAST, grb.onRequest(buffer, slot, CURRENT, BUDGET));
        assertTrue(buffer.myRetransmitBit(slot));
        assertTrue(grb.gossipFlag(buffer, slot), "this member's digests now flag the message");
        grb.onGossipedBit(buffer, slot);
        assertEquals(1, buffer.gossipRetransmitBit(slot), "a digest says another member retransmitted it too");
        assertEquals(Action.MULTICAST_BY_BIT, grb.onRequest(buffer, slot, CURRENT, BUDGET),
                "the second request multicasts, below the counter threshold of 3");
        assertFalse(buffer.myRetransmitBit(slot));
        assertFalse(grb.gossipFlag(buffer, slot));
        assertEquals(0, buffer.gossipRetransmitBit(slot));
        assertEquals(0, buffer.requestCounter(slot));
    }

    @Test
    void shouldNeedTheGossipedBitAsWellAsItsOwn() {
        RetransmitPolicy grb = policy(true, true, 3);
        assertEquals(Action.UNICAST, grb.onRequest(buffer, slot, CURRENT, BUDGET));
        assertEquals(Action.UNICAST, grb.onRequest(buffer, slot, CURRENT, BUDGET), "no other member retransmitted");
        assertEquals(Action.MULTICAST, grb.onRequest(buffer, slot, CURRENT, BUDGET), "the counter reaches 3");
    }

    @Test
    void shouldIgnoreGossipedBitsWithIpmcAlone() {
        RetransmitPolicy ipmc = policy(true, false, 3);
        assertEquals(Action.UNICAST, ipmc.onRequest(buffer, slot, CURRENT, BUDGET));
        ipmc.onGossipedBit(buffer, slot);
        assertEquals(Action.UNICAST, ipmc.onRequest(buffer, slot, CURRENT, BUDGET));
    }

    @Test
    void shouldMergeGossipedBitsOnlyWithGrb() {
        policy(true, false, 2).onGossipedBit(buffer, slot);
        assertEquals(0, buffer.gossipRetransmitBit(slot));
        policy(true, true, 2).onGossipedBit(buffer, slot);
        assertEquals(1, buffer.gossipRetransmitBit(slot));
    }

    @Test
    void shouldMulticastOnAnMcastRequestOnlyAtTheThreshold() {
        RetransmitPolicy local = policy(false, false, 2);
        assertEquals(Action.NONE, local.onMcast(buffer, slot));
        assertEquals(Action.MULTICAST, local.onMcast(buffer, slot), "Figure 9 applies the counter rule itself");
        assertEquals(Action.UNICAST, local.onRequest(buffer, slot, CURRENT, BUDGET));
        assertEquals(Action.MULTICAST, local.onMcast(buffer, slot), "a request and an mcast make two");
    }
}
