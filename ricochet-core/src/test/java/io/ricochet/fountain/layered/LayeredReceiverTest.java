package io.ricochet.fountain.layered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The receiver's rule, fed the sender's packets directly (no delay), some of them dropped. */
class LayeredReceiverTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private final LayerSchedule schedule = new LayerSchedule(5, 10, SECOND, SECOND / 4, false);

    private record Step(long timeNs, LayeredReceiver.Action action, int level) {
    }

    /** Feeds the packets sent before {@code untilNs} of the layers the receiver holds, but {@code drop}'s. */
    private List<Step> run(LayeredReceiver receiver, long untilNs, Predicate<LayeredPacket> drop) {
        LayeredSender sender = new LayeredSender(schedule);
        List<Step> steps = new ArrayList<>();
        while (sender.peekNs() < untilNs) {
            LayeredPacket p = sender.next();
            if (p.layer() <= receiver.level() && !drop.test(p)) {
                LayeredReceiver.Action a = receiver.onPacket(p, p.sendNs());
                if (a != LayeredReceiver.Action.NONE) {
                    steps.add(new Step(p.sendNs(), a, receiver.level()));
                }
            }
        }
        return steps;
    }

    private static boolean is(LayeredPacket p, int layer, long seqno) {
        return p.layer() == layer && p.seqno() == seqno;
    }

    @Test
    void shouldJoinOnlyRightAfterAnSpOfItsLevel() {
        LayeredReceiver rx = new LayeredReceiver(schedule, 0, SECOND);
        List<Step> steps = run(rx, 9 * SECOND, p -> false);
        // Not at SP 1 (its first window was partial); level 0 joins at SP 2, level 1 not at SP 3 (level 0) but at
        // SP 4 (level 2), level 2 at SP 8 (level 3).
        assertEquals(List.of(2L, 4L, 8L), steps.stream().map(s -> s.timeNs() / SECOND).toList());
        assertTrue(steps.stream().allMatch(s -> s.action() == LayeredReceiver.Action.JOIN));
        assertTrue(steps.stream().allMatch(s -> s.timeNs() % SECOND < 100 * MS), "joins right after an SP");
        assertEquals(3, rx.level());
        assertEquals(0, rx.losses());
    }

    @Test
    void shouldNotJoinAfterALossInTheBurstNorLeave() {
        LayeredReceiver rx = new LayeredReceiver(schedule, 0, SECOND);
        // Layer 0's packet 16 is in the burst before SP 2 (1.5 .. 1.75 s).
        assertTrue(schedule.inBurst(0, 16));
        List<Step> steps = run(rx, 3 * SECOND + SECOND / 2, p -> is(p, 0, 16));
        assertEquals(List.of(new Step(3 * SECOND + 50 * MS, LayeredReceiver.Action.JOIN, 1)), steps,
                "no join at SP 2; the next SP's window is clean");
        assertEquals(1, rx.losses());
        assertEquals(1, rx.burstLosses());
    }

    @Test
    void shouldNotJoinWhenTheBurstsLastPacketIsLostAndOnlyAnotherLayerShowsTheSp() {
        LayeredReceiver rx = new LayeredReceiver(schedule, 0, SECOND);
        // Level 1 from SP 2; before SP 4 layers 0..2 burst. Layer 1's last burst packet (39) is lost: after the
        // silence, layer 0's packet comes first, past SP 4, and must already count it.
        assertTrue(schedule.inBurst(1, 39));
        assertEquals(40, schedule.packetsBeforeSp(1, 4));
        List<Step> steps = run(rx, 4 * SECOND + SECOND / 2, p -> is(p, 1, 39));
        assertEquals(List.of(2L), steps.stream().map(s -> s.timeNs() / SECOND).toList(), "only the join at SP 2");
        assertEquals(1, rx.level());
        assertEquals(1, rx.burstLosses());
    }

    @Test
    void shouldLeaveOnALossOutsideABurstThenStayDeafForItsPeriod() {
        LayeredReceiver rx = new LayeredReceiver(schedule, 0, SECOND);
        // Level 2 from SP 4; layer 0's packets 41 and 43 (4.15 s, 4.35 s) are lost, out of any burst.
        assertTrue(!schedule.inBurst(0, 41) && !schedule.inBurst(0, 43));
        List<Step> steps = run(rx, 4 * SECOND + SECOND / 2, p -> is(p, 0, 41) || is(p, 0, 43));
        assertEquals(List.of(LayeredReceiver.Action.JOIN, LayeredReceiver.Action.JOIN, LayeredReceiver.Action.LEAVE),
                steps.stream().map(Step::action).toList(), "one leave: the second loss is in the deaf period");
        assertEquals(new Step(4 * SECOND + 250 * MS, LayeredReceiver.Action.LEAVE, 1), steps.get(2));
        assertEquals(2, rx.losses());
        assertEquals(0, rx.burstLosses());
    }

    @Test
    void shouldLeaveAgainOnceTheDeafPeriodIsOver() {
        LayeredReceiver rx = new LayeredReceiver(schedule, 0, 100 * MS);
        List<Step> steps = run(rx, 4 * SECOND + SECOND / 2, p -> is(p, 0, 41) || is(p, 0, 43));
        assertEquals(0, rx.level());
        assertEquals(2, steps.stream().filter(s -> s.action() == LayeredReceiver.Action.LEAVE).count());
    }

    @Test
    void shouldNeverLeaveLevelZero() {
        LayeredReceiver rx = new LayeredReceiver(schedule, 0, 0);
        List<Step> steps = run(rx, SECOND / 2, p -> p.seqno() % 2 == 1);
        assertTrue(steps.isEmpty());
        assertEquals(0, rx.level());
        assertTrue(rx.losses() > 0);
    }
}
