package io.ricochet.fountain.layered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayerScheduleTest {
    private static final long SECOND = 1_000_000_000L;

    private static LayerSchedule schedule(boolean burstAllLayers) {
        return new LayerSchedule(5, 10, SECOND, SECOND / 4, burstAllLayers);
    }

    /** The packets of the schedule sent in [fromNs, toNs). */
    private static List<LayeredPacket> sent(LayerSchedule schedule, long fromNs, long toNs) {
        LayeredSender sender = new LayeredSender(schedule);
        List<LayeredPacket> packets = new ArrayList<>();
        while (sender.peekNs() < toNs) {
            LayeredPacket p = sender.next();
            if (p.sendNs() >= fromNs) {
                packets.add(p);
            }
        }
        return packets;
    }

    private static long count(List<LayeredPacket> packets, int layer) {
        return packets.stream().filter(p -> p.layer() == layer).count();
    }

    @Test
    void shouldGiveLayersZeroAndOneTheBaseRateAndDoubleAboveSoLevelsDouble() {
        LayerSchedule s = schedule(false);
        assertEquals(List.of(10.0, 10.0, 20.0, 40.0, 80.0),
                List.of(s.layerRate(0), s.layerRate(1), s.layerRate(2), s.layerRate(3), s.layerRate(4)));
        assertEquals(List.of(10.0, 20.0, 40.0, 80.0, 160.0),
                List.of(s.levelRate(0), s.levelRate(1), s.levelRate(2), s.levelRate(3), s.levelRate(4)));
        assertEquals(List.of(0, 0, 1, 2, 4, 4),
                List.of(s.fairLevel(5), s.fairLevel(19.9), s.fairLevel(20), s.fairLevel(79), s.fairLevel(160),
                        s.fairLevel(1e6)));
    }

    @Test
    void shouldSendEachLayerAtItsRateOverAnSpInterval() {
        List<LayeredPacket> packets = sent(schedule(true), 0, 8 * SECOND);
        for (int layer = 0; layer < 5; layer++) {
            assertEquals(8 * (long) schedule(true).layerRate(layer), count(packets, layer), "layer " + layer);
        }
    }

    @Test
    void shouldPlaceSpsOfLevelIEveryTwoToTheISpIntervalsCappedBelowTheTopLayer() {
        LayerSchedule s = schedule(false);
        assertEquals(List.of(0, 1, 0, 2, 0, 1, 0, 3, 3), List.of(s.spLevel(1), s.spLevel(2), s.spLevel(3),
                s.spLevel(4), s.spLevel(5), s.spLevel(6), s.spLevel(7), s.spLevel(8), s.spLevel(16)));
        assertEquals(3 * SECOND, s.spTimeNs(3));
        assertEquals(List.of(0L, 0L, 1L, 3L), List.of(s.spsBefore(0), s.spsBefore(SECOND - 1), s.spsBefore(SECOND),
                s.spsBefore(3 * SECOND + 5)));
        for (LayeredPacket p : sent(s, 0, 5 * SECOND)) {
            assertEquals(s.spsBefore(p.sendNs()), p.sp(), "packet " + p);
        }
    }

    @Test
    void shouldBurstAtTwiceTheRateThenFallSilentUpToTheSp() {
        LayerSchedule s = schedule(true);
        // SP 4 at 4 s: burst in [3.5 s, 3.75 s), silence in [3.75 s, 4 s).
        List<LayeredPacket> burst = sent(s, 3 * SECOND + SECOND / 2, 3 * SECOND + 3 * SECOND / 4);
        List<LayeredPacket> silence = sent(s, 3 * SECOND + 3 * SECOND / 4, 4 * SECOND);
        List<LayeredPacket> before = sent(s, 3 * SECOND, 3 * SECOND + SECOND / 2);
        for (int layer = 0; layer < 5; layer++) {
            assertEquals((long) (s.layerRate(layer) / 2), count(before, layer), "layer " + layer + ", half a second");
            assertEquals(count(before, layer), count(burst, layer), "layer " + layer + ", a quarter in the burst");
        }
        assertTrue(silence.isEmpty(), "sent in the silence: " + silence);
        assertTrue(burst.stream().allMatch(LayeredPacket::burst));
        assertTrue(before.stream().noneMatch(LayeredPacket::burst));
    }

    @Test
    void shouldBurstOnlyTheLayersUpToTheSpsLevelUnlessAllLayersAreAsked() {
        long from = SECOND / 2;
        long to = 3 * SECOND / 4;
        List<LayeredPacket> some = sent(schedule(false), from, to); // before SP 1, of level 0
        assertTrue(some.stream().filter(p -> p.layer() == 0).allMatch(LayeredPacket::burst));
        assertTrue(some.stream().filter(p -> p.layer() > 0).noneMatch(LayeredPacket::burst));
        assertEquals(count(sent(schedule(false), 0, from), 1) / 2, count(some, 1), "layer 1 keeps its pace");
        assertTrue(sent(schedule(true), from, to).stream().allMatch(LayeredPacket::burst));
        assertFalse(schedule(false).bursts(2, 2));
        assertTrue(schedule(false).bursts(2, 4));
    }

    @Test
    void shouldCountThePacketsSentBeforeAnSp() {
        LayerSchedule s = schedule(false);
        List<LayeredPacket> packets = sent(s, 0, 6 * SECOND);
        for (int layer = 0; layer < 5; layer++) {
            for (long k = 1; k <= 5; k++) {
                long spNs = s.spTimeNs(k);
                int l = layer;
                assertEquals(packets.stream().filter(p -> p.layer() == l && p.sendNs() < spNs).count(),
                        s.packetsBeforeSp(layer, k), "layer " + layer + ", SP " + k);
            }
        }
    }

    @Test
    void shouldRefuseBadParametersWithAClearMessage() {
        assertEquals("layers 1: must be in 2..30", assertThrows(IllegalArgumentException.class,
                () -> new LayerSchedule(1, 10, SECOND, 0, false)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LayerSchedule(4, 0, SECOND, 0, false));
        assertThrows(IllegalArgumentException.class, () -> new LayerSchedule(4, 10, SECOND, SECOND / 2, false));
    }
}
