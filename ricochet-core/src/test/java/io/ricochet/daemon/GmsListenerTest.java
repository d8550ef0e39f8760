package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.engine.Counters;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetProtocol;
import io.ricochet.loss.LossInjector;
import io.ricochet.loss.LossModel;
import io.ricochet.loss.LossScope;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What the GMS pushes reaches the driver in order, stale news is dropped and counted, joins are confirmed. */
class GmsListenerTest {
    private static final int SELF = 1;
    private static final int G = 4;
    private static final InetSocketAddress MULTICAST = new InetSocketAddress("239.0.0.4", 9004);

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final RecordingTransport transport = new RecordingTransport();
    private final Counters counters = new Counters(DaemonCounter.ALL);
    private final List<Integer> joined = new ArrayList<>();
    private final EngineDriver driver = driver();
    private final GmsListener listener = new GmsListener(driver, Runnable::run, (group, member) -> {
        if (member) {
            joined.add(group);
        }
    });

    private EngineDriver driver() {
        EngineDriver d = new EngineDriver(SELF, channel.eventLoop(), System::nanoTime,
                new LossInjector(LossModel.none(), LossScope.DATA, SELF), counters);
        d.attach(new RicochetProtocol(RicochetConfig.builder().build()).create(SELF, new SplittableRandom(2), d),
                transport);
        return d;
    }

    private static InetSocketAddress unicast(int node) {
        return new InetSocketAddress("127.0.0." + node, 7000 + node);
    }

    private static GroupView view(long viewId, int... nodes) {
        Map<Integer, InetSocketAddress> members = new java.util.LinkedHashMap<>();
        Map<Integer, Long> incarnations = new java.util.LinkedHashMap<>();
        for (int node : nodes) {
            members.put(node, unicast(node));
            incarnations.put(node, 1L);
        }
        return new GroupView(G, 0, viewId, MULTICAST, members, incarnations);
    }

    @Test
    void shouldApplyAViewAndConfirmTheJoin() {
        listener.onGroupView(view(3, SELF, 2));

        assertTrue(driver.isMember(G));
        assertEquals(List.of(G), joined);
        assertEquals(List.of("join 4 9004"), transport.sockets);
    }

    @Test
    void shouldDropAndCountNewsOlderThanTheViewApplied() {
        listener.onGroupView(view(5, SELF, 2));
        listener.onMemberEvent(new MemberEvent(MemberEventKind.JOIN, G, 5, 3, unicast(3), 1));
        listener.onGroupView(view(4, SELF));

        assertEquals(2, counters.get(DaemonCounter.STALE_VIEWS));
        assertEquals(List.of(2), driver.views().others(G));

        listener.onMemberEvent(new MemberEvent(MemberEventKind.FAIL, G, 6, 2, unicast(2), 1));
        assertEquals(List.of(), driver.views().others(G));
        assertFalse(driver.views().others(G).contains(3));
    }

    @Test
    void shouldCountTheFailuresItLearnsButNotLeavesOrStaleNews() {
        listener.onGroupView(view(5, SELF, 2, 3));
        listener.onMemberEvent(new MemberEvent(MemberEventKind.LEAVE, G, 6, 3, unicast(3), 1));
        listener.onMemberEvent(new MemberEvent(MemberEventKind.FAIL, G, 6, 2, unicast(2), 1));
        listener.onMemberEvent(new MemberEvent(MemberEventKind.FAIL, G, 7, 2, unicast(2), 1));

        assertEquals(1, counters.get(DaemonCounter.MEMBER_FAILURES));
        assertEquals(1, counters.get(DaemonCounter.STALE_VIEWS));
    }

    @Test
    void shouldMapTheGmsEventKindsToTheEngines() {
        for (MemberEventKind kind : MemberEventKind.values()) {
            MembershipEvent event = GmsListener.toEngine(new MemberEvent(kind, G, 1, 9, unicast(9), 77));
            assertEquals(kind.name(), event.kind().name());
            assertEquals(new MembershipEvent(event.kind(), G, 9, 77), event);
        }
    }

    @Test
    void shouldSayTheDaemonMustStopWhenTheGmsRefusesItsKeysAndNotForOtherRefusals() {
        listener.onError(0, io.ricochet.control.message.ErrorCode.PROTOCOL_MISMATCH, "group 4 runs another protocol");
        assertFalse(listener.keyMismatch().isDone());
        listener.onError(0, io.ricochet.control.message.ErrorCode.KEY_MISMATCH, "node 1 refused: its key 1 differs");
        assertEquals("node 1 refused: its key 1 differs", listener.keyMismatch().getNow(null));
    }
}
