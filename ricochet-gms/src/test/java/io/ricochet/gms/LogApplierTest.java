package io.ricochet.gms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.net.InetAddresses;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.link.Partitioning;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The replicated state machine of a partition without Ratis: the log entries, the effects of applying them, and
 * snapshots. Replicas that apply the same log, or a snapshot of its prefix and then the rest, must agree exactly.
 */
class LogApplierTest {
    private static final Partitioning PARTITION = new Partitioning(0, 2);
    private static final MulticastPool POOL = new MulticastPool(
            (Inet4Address) InetAddresses.forString("239.255.0.0"), 9100);
    private static final MulticastPool REGION_POOL = new MulticastPool(
            (Inet4Address) InetAddresses.forString("239.254.0.0"), 9100);
    private static final long CLOCK = 1_790_000_000_000L;

    @Test
    void shouldRoundTripCommandsAndRefuseAnythingElse() throws ControlDecodeException {
        for (ControlMessage m : List.of(register(3, 7L), new Join(4, 3, 0), new Leave(-2, 3), new NodeFailed(3),
                new NodeRecovered(3))) {
            Command command = new Command(0x1234_5678_9ABC_DEF0L, CLOCK, m);
            assertEquals(command, Command.fromBytes(command.toBytes()));
        }
        byte[] bytes = new Command(1, CLOCK, new NodeFailed(3)).toBytes();
        assertThrows(ControlDecodeException.class, () -> Command.fromBytes(new byte[3]));
        assertThrows(ControlDecodeException.class, () -> Command.fromBytes(java.util.Arrays.copyOf(bytes,
                bytes.length + 1)));
        bytes[bytes.length - 5] = 0x22;   // the type byte of the frame: an ERROR is not a membership change
        assertThrows(ControlDecodeException.class, () -> Command.fromBytes(bytes));
    }

    @Test
    void shouldBindThenPushThenSendTheViewsOnRegister() {
        LogApplier applier = applier();
        applier.apply(command(11, register(1, 5L)));
        applier.apply(command(11, new Join(2, 1, 0)));
        List<Effect> effects = applier.apply(command(12, register(1, 6L)));
        assertEquals(new Effect.Bind(12, 1), effects.get(0));
        Update announced = assertInstanceOf(Effect.Push.class, effects.get(1)).update();
        assertEquals(MemberEventKind.JOIN, announced.event().kind());
        assertEquals(6L, announced.event().incarnation());
        GroupView view = assertInstanceOf(Effect.SendView.class, effects.get(2)).view();
        assertEquals(announced.view(), view);
        assertEquals(3, effects.size());
    }

    @Test
    void shouldRefuseTheSessionOfARequestTheStateRefuses() {
        LogApplier applier = applier();
        applier.apply(command(11, register(1, 5L)));
        applier.apply(command(11, new Join(2, 1, 0)));
        applier.apply(command(12, register(2, 5L)));
        List<Effect> effects = applier.apply(command(12, new Join(2, 2, 7)));
        Effect.Refuse refuse = assertInstanceOf(Effect.Refuse.class, effects.get(0));
        assertEquals(12, refuse.session());
        assertEquals(ErrorCode.PROTOCOL_MISMATCH, refuse.error().code());

        applier.apply(command(13, new NodeFailed(2)));
        effects = applier.apply(command(12, new Join(4, 2, 0)));
        assertEquals(ErrorCode.NODE_FAILED, assertInstanceOf(Effect.Refuse.class, effects.get(0)).error().code());
    }

    @Test
    void shouldSendEachDetectorItsListAndMoveAFailedDetectorsRack() {
        LogApplier applier = applier();
        for (int node = 1; node <= 6; node++) {
            applier.apply(command(node, register(node, 1)));   // racks 2, 3, 1, 2, 3, 1
        }
        List<Effect> effects = applier.apply(command(21, new Watch("rack-1", 1)));
        assertEquals(new Effect.BindDetector(21, "rack-1"), effects.get(0));
        assertEquals(List.of(1, 2, 3, 4, 5, 6), nodes(lastList(effects, "rack-1")), "alone, it watches every rack");
        effects = applier.apply(command(22, new Watch("rack-2", 2)));
        assertEquals(List.of(2, 3, 5, 6), nodes(lastList(effects, "rack-1")), "rack 3 goes to the next rack, 1");
        assertEquals(List.of(1, 4), nodes(lastList(effects, "rack-2")));
        effects = applier.apply(command(24, new Watch("standby-1", Watch.STANDBY)));
        assertEquals(List.of(2, 5), nodes(lastList(effects, "standby-1")), "a standby before a neighbour");
        assertEquals(List.of(3, 6), nodes(lastList(effects, "rack-1")));
        effects = applier.apply(command(23, new Watch("rack-3", 3)));
        assertEquals(List.of(2, 5), nodes(lastList(effects, "rack-3")));
        assertEquals(List.of(), nodes(lastList(effects, "standby-1")), "rack 3 went back to its own detector");

        effects = applier.apply(command(25, new DetectorFailed("rack-2")));
        assertEquals(List.of(1, 4), nodes(lastList(effects, "standby-1")), "the standby takes rack 2 over");
        effects = applier.apply(command(25, new DetectorFailed("standby-1")));
        assertEquals(List.of(1, 2, 4, 5), nodes(lastList(effects, "rack-3")), "no standby: the next rack's detector");
        effects = applier.apply(command(25, new DetectorRecovered("rack-2")));
        assertEquals(List.of(2, 5), nodes(lastList(effects, "rack-3")));
        assertEquals(List.of(1, 4), nodes(lastList(effects, "rack-2")));
    }

    private static WatchList lastList(List<Effect> effects, String detector) {
        WatchList last = null;
        for (Effect e : effects) {
            if (e instanceof Effect.SendWatchList w && w.detector().equals(detector)) {
                last = w.list();
            }
        }
        assertTrue(last != null, "a list for " + detector + " in " + effects);
        return last;
    }

    private static List<Integer> nodes(WatchList list) {
        return list.targets().stream().map(WatchList.Target::nodeId).toList();
    }

    @Test
    void shouldStartNewGroupsAboveTheLeadersClock() {
        LogApplier applier = applier();
        applier.apply(command(11, register(1, 5L)));
        List<Effect> effects = applier.apply(command(11, new Join(2, 1, 0)));
        long viewId = assertInstanceOf(Effect.Push.class, effects.get(0)).update().event().viewId();
        assertEquals((CLOCK << LogApplier.VIEW_ID_SHIFT) + 1, viewId);
        // A leader whose clock is behind does not make ids go back.
        applier.apply(new Command(11, CLOCK - 60_000, new Leave(2, 1)));
        effects = applier.apply(new Command(11, CLOCK - 60_000, new Join(2, 1, 0)));
        assertTrue(assertInstanceOf(Effect.Push.class, effects.get(0)).update().event().viewId() > viewId);
    }

    @Test
    void shouldAgreeWhetherALogIsReplayedWholeOrFromASnapshotOfItsPrefix() throws IOException {
        assertReplicasAgree(RegionSettings.OFF);
    }

    @Test
    void shouldAgreeOnRegionsWhetherALogIsReplayedWholeOrFromASnapshotOfItsPrefix() throws IOException {
        for (int min : new int[] {1, 3}) {
            List<Effect> effects = assertReplicasAgree(new RegionSettings(true, REGION_POOL, min));
            long withRegions = effects.stream().filter(e -> e instanceof Effect.SendView v
                    && v.view().regions().size() > 1).count();
            assertTrue(withRegions > 100, "views of groups in several regions: " + withRegions);
        }
    }

    /** Replays a random log whole and from snapshots of prefixes; returns the whole replay's effects. */
    private static List<Effect> assertReplicasAgree(RegionSettings regions) throws IOException {
        List<Command> log = randomLog(new SplittableRandom(42), 3_000);
        LogApplier whole = applier(regions);
        List<Effect> wholeEffects = new ArrayList<>();
        log.forEach(c -> wholeEffects.addAll(whole.apply(c)));

        for (int cut : new int[] {0, 1, 777, 2_999}) {
            LogApplier prefix = applier(regions);
            List<Effect> effects = new ArrayList<>();
            log.subList(0, cut).forEach(c -> effects.addAll(prefix.apply(c)));
            LogApplier restored = new LogApplier(roundTrip(prefix.state(), regions));
            assertArrayEquals(bytes(prefix.state()), bytes(restored.state()), "snapshot at " + cut);
            log.subList(cut, log.size()).forEach(c -> effects.addAll(restored.apply(c)));
            assertEquals(wholeEffects, effects, "effects with a snapshot at " + cut);
            assertArrayEquals(bytes(whole.state()), bytes(restored.state()), "final state with a snapshot at " + cut);
        }
        return wholeEffects;
    }

    @Test
    void shouldRefuseASnapshotOfAnotherPartitionOrACorruptOne() throws IOException {
        LogApplier applier = applier();
        randomLog(new SplittableRandom(7), 200).forEach(applier::apply);
        byte[] bytes = bytes(applier.state());
        IOException other = assertThrows(IOException.class, () -> MembershipSnapshot.read(
                new DataInputStream(new ByteArrayInputStream(bytes)), new Partitioning(1, 2), POOL));
        assertTrue(other.getMessage().contains("partition 0 of 2"), other.getMessage());
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(IOException.class, () -> MembershipSnapshot.read(
                new DataInputStream(new ByteArrayInputStream(longer)), PARTITION, POOL));
        byte[] shorter = java.util.Arrays.copyOf(bytes, bytes.length - 3);
        assertThrows(IOException.class, () -> MembershipSnapshot.read(
                new DataInputStream(new ByteArrayInputStream(shorter)), PARTITION, POOL));
    }

    /** Registrations (some restarts), joins and leaves of even groups, failures and recoveries, at random. */
    private static List<Command> randomLog(SplittableRandom rnd, int length) {
        List<Command> log = new ArrayList<>();
        for (int node = 1; node <= 12; node++) {
            log.add(command(node, register(node, 1)));
        }
        for (int i = 0; i < length; i++) {
            int node = 1 + rnd.nextInt(12);
            int group = 2 * rnd.nextInt(20);
            String detector = "rack-" + rnd.nextInt(4);
            ControlMessage m = switch (rnd.nextInt(13)) {
                case 0 -> register(node, rnd.nextInt(3));
                case 1 -> new NodeFailed(node);
                case 2 -> new NodeRecovered(node);
                case 3, 4, 5 -> new Leave(group, node);
                case 10 -> new Watch(detector, rnd.nextInt(4));
                case 11 -> new DetectorFailed(detector);
                case 12 -> new DetectorRecovered(detector);
                default -> new Join(group, node, rnd.nextInt(20) == 0 ? 1 : 0);
            };
            log.add(new Command(node, CLOCK + i, m));
        }
        return log;
    }

    private static MembershipState roundTrip(MembershipState state, RegionSettings regions) throws IOException {
        return MembershipSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes(state))), PARTITION, POOL,
                regions);
    }

    private static byte[] bytes(MembershipState state) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MembershipSnapshot.write(state, PARTITION, new DataOutputStream(out));
        return out.toByteArray();
    }

    private static LogApplier applier() {
        return applier(RegionSettings.OFF);
    }

    private static LogApplier applier(RegionSettings regions) {
        return new LogApplier(new MembershipState(PARTITION, POOL, 0, regions));
    }

    private static Command command(long session, ControlMessage m) {
        return new Command(session, CLOCK, m);
    }

    private static Register register(int node, long incarnation) {
        return new Register(node, new InetSocketAddress(InetAddresses.forString("10.0.0." + node), 5000 + node),
                incarnation, 1 + node % 3, 7500);
    }
}
