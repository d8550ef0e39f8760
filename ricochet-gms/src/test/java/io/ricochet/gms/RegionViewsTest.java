package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.ViewRegion;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Regions at the GMS: views carry them, a change of regions is a change of the group (view id up, a view to every
 * member), nothing changes with regions off, and groups with the same members share one region address.
 */
class RegionViewsTest {
    private static final Partitioning PARTITION = new Partitioning(0, 1);
    private static final MulticastPool POOL = pool("239.255.0.0");
    private static final MulticastPool REGION_POOL = pool("239.254.0.0");
    private static final long CLOCK = 1_790_000_000_000L;

    private static MulticastPool pool(String base) {
        return new MulticastPool((Inet4Address) InetAddresses.forString(base), 9100);
    }

    private static LogApplier applier(boolean regions, int min) {
        RegionSettings settings = regions ? new RegionSettings(true, REGION_POOL, min) : RegionSettings.OFF;
        LogApplier applier = new LogApplier(new MembershipState(PARTITION, POOL, 0, settings));
        for (int node = 1; node <= 6; node++) {
            applier.apply(new Command(node, CLOCK, new Register(node,
                    new InetSocketAddress(InetAddresses.forString("10.0.0." + node), 5000), 1L, 0, 0)));
        }
        return applier;
    }

    private static List<Effect> join(LogApplier applier, int group, int... nodes) {
        List<Effect> effects = new ArrayList<>();
        for (int node : nodes) {
            effects.addAll(applier.apply(new Command(node, CLOCK, new Join(group, node, 0))));
        }
        return effects;
    }

    /** The views each node is sent, by node, of {@code group}, in order. */
    private static Map<Integer, List<GroupView>> viewsOf(List<Effect> effects, int group) {
        Map<Integer, List<GroupView>> out = new TreeMap<>();
        for (Effect e : effects) {
            if (e instanceof Effect.SendView v && v.view().group() == group) {
                out.computeIfAbsent(v.node(), n -> new ArrayList<>()).add(v.view());
            }
        }
        return out;
    }

    @Test
    void shouldGiveGroupsWithTheSameMembersOneRegionAddress() {
        LogApplier applier = applier(true, 5);
        join(applier, 1, 1, 2, 3);
        join(applier, 2, 1, 2, 3);
        GroupView one = applier.state().view(1).orElseThrow();
        GroupView two = applier.state().view(2).orElseThrow();
        assertEquals(1, one.regions().size());
        assertEquals(one.regions(), two.regions());
        assertEquals(List.of(1, 2, 3), one.regions().get(0).members());
        assertTrue(one.regions().get(0).multicast().getAddress().getHostAddress().startsWith("239.254."));
        assertNotEquals(one.multicast(), one.listenAddress(1));
    }

    @Test
    void shouldSendEveryMemberTheNewRegionsOnceWhenAJoinSplitsTheGroup() {
        LogApplier applier = applier(true, 1);
        join(applier, 1, 1, 2, 3);
        join(applier, 2, 1, 2, 3);
        GroupView before = applier.state().view(2).orElseThrow();
        List<Effect> effects = join(applier, 1, 4);
        Map<Integer, List<GroupView>> views = viewsOf(effects, 1);
        assertEquals(List.of(1, 2, 3, 4), List.copyOf(views.keySet()));
        GroupView after = applier.state().view(1).orElseThrow();
        views.values().forEach(v -> assertEquals(List.of(after), v, "one view, with the new regions"));
        assertEquals(2, after.regions().size());
        assertEquals(after.listenAddress(1), before.listenAddress(1), "1, 2, 3 keep their region (groups 1 and 2)");
        assertEquals(before, applier.state().view(2).orElseThrow(), "group 2's regions did not change");
        assertTrue(viewsOf(effects, 2).isEmpty());
    }

    @Test
    void shouldRaiseTheViewIdOfAGroupWhoseRegionsMoveWithoutAMemberChange() {
        LogApplier applier = applier(true, 1);
        join(applier, 1, 1, 2, 3);
        join(applier, 2, 1, 2, 3);
        long before = applier.state().view(1).orElseThrow().viewId();
        List<Effect> effects = applier.apply(new Command(3, CLOCK, new Leave(2, 3)));
        GroupView after = applier.state().view(1).orElseThrow();
        assertEquals(before + 1, after.viewId());
        assertEquals(List.of(1, 2, 3), List.copyOf(viewsOf(effects, 1).keySet()));
        assertTrue(after.regions().contains(new ViewRegion(after.listenAddress(3), List.of(3))));
        assertTrue(after.regions().contains(new ViewRegion(after.listenAddress(1), List.of(1, 2))));
        assertNotEquals(after.listenAddress(1), after.listenAddress(3));
        assertEquals(2, after.destinations().size());
    }

    @Test
    void shouldKeepTheRegionsInTheViewsOfANodeThatRegistersANewAddress() {
        LogApplier applier = applier(true, 1);
        join(applier, 1, 1, 2, 3);
        join(applier, 2, 1, 2);
        GroupView before = applier.state().view(1).orElseThrow();
        List<Effect> effects = applier.apply(new Command(9, CLOCK, new Register(2,
                new InetSocketAddress(InetAddresses.forString("10.0.1.2"), 5000), 1L, 0, 0)));
        GroupView sent = viewsOf(effects, 1).get(2).get(0);
        assertEquals(before.viewId() + 1, sent.viewId());
        assertEquals(before.regions(), sent.regions(), "the same regions: no member came or went");
        assertEquals(before.listenAddress(2), sent.listenAddress(2));
    }

    @Test
    void shouldSendAGroupWhoseRegionsDoNotFitAViewWithoutRegions() {
        // Group 1 holds nodes 1..2600; every node is also alone in a group of its own, so with a minimum of 1 each
        // node is a region of its own: 2600 regions, more than one frame lists (2519).
        RegionAssigner assigner = new RegionAssigner(new RegionSettings(true, REGION_POOL, 1));
        java.util.SortedMap<Integer, GroupState> groups = new TreeMap<>();
        GroupState big = new GroupState(1, 0, POOL.addressOf(1), 0);
        groups.put(1, big);
        for (int node = 1; node <= 2600; node++) {
            Registration r = new Registration(new InetSocketAddress(InetAddresses.forString("10.1.0.1"), node), 1L);
            big.put(node, r);
            GroupState own = new GroupState(1000 + node, 0, POOL.addressOf(1000 + node), 0);
            own.put(node, r);
            groups.put(1000 + node, own);
        }
        Map<Integer, List<ViewRegion>> assigned = assigner.assign(groups);
        assertEquals(List.of(), assigned.get(1));
        assertEquals(1, assigned.get(1001).size());
        assertTrue(!GroupView.fitsWithRegions(2600, 2600));
    }

    @Test
    void shouldKeepRegionsApartWhenOverlapsWouldMakeThemSmall() {
        LogApplier applier = applier(true, 5);
        join(applier, 1, 1, 2, 3);
        join(applier, 2, 3, 4, 5);
        GroupView one = applier.state().view(1).orElseThrow();
        GroupView two = applier.state().view(2).orElseThrow();
        assertEquals(1, one.regions().size());
        assertEquals(1, two.regions().size());
        assertNotEquals(one.listenAddress(3), two.listenAddress(3), "node 3 is in one region per set");
    }

    @Test
    void shouldSendViewsWithoutRegionsWhenRegionsAreOff() {
        LogApplier applier = applier(false, 1);
        List<Effect> effects = join(applier, 1, 1, 2, 3);
        join(applier, 2, 1, 2);
        viewsOf(effects, 1).values().forEach(vs -> vs.forEach(v -> assertEquals(List.of(), v.regions())));
        GroupView view = applier.state().view(1).orElseThrow();
        assertEquals(List.of(), view.regions());
        assertEquals(List.of(view.multicast()), view.destinations());
    }
}
