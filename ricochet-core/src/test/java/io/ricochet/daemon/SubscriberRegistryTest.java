package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.api.DeliveryListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubscriberRegistryTest {
    private static class Recorder implements DeliveryListener {
        final List<byte[]> payloads = new ArrayList<>();
        final List<Long> lost = new ArrayList<>();

        @Override
        public void delivered(int origin, int group, long seqno, byte[] payload) {
            payloads.add(payload);
        }

        @Override
        public void lost(int origin, int group, long seqno) {
            lost.add(seqno);
        }
    }

    private final SubscriberRegistry registry = new SubscriberRegistry();

    @Test
    void shouldHandALocalSendToTheSubscribersThatTakeIt() {
        Recorder sender = new Recorder();
        Recorder everything = new Recorder();
        Recorder noEcho = new Recorder() {
            @Override
            public boolean acceptsLocal(boolean own) {
                return !own;
            }
        };
        Recorder noLocal = new Recorder() {
            @Override
            public boolean acceptsLocal(boolean own) {
                return false;
            }
        };
        for (Recorder r : List.of(sender, everything, noEcho, noLocal)) {
            registry.add(4, r);
        }
        byte[] payload = {1, 2};

        assertEquals(3, registry.deliveredLocal(9, 4, 0, payload, sender));
        assertEquals(2, registry.deliveredLocal(9, 4, 1, payload, noEcho), "the sender opted out of its echo");

        assertEquals(2, sender.payloads.size(), "the sender's own connection gets it by default");
        assertEquals(2, everything.payloads.size());
        assertEquals(1, noEcho.payloads.size());
        assertTrue(noLocal.payloads.isEmpty());
        assertNotSame(payload, everything.payloads.get(0));
    }

    @Test
    void shouldHandEverySubscriberOfTheGroupItsOwnCopy() {
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        Recorder other = new Recorder();
        registry.add(4, a);
        registry.add(4, b);
        registry.add(5, other);
        byte[] buffer = {9, 1, 2, 3, 9};

        registry.delivered(2, 4, 0, buffer, 1, 3);
        registry.lost(2, 4, 1);

        assertArrayEquals(new byte[] {1, 2, 3}, a.payloads.get(0));
        assertArrayEquals(new byte[] {1, 2, 3}, b.payloads.get(0));
        assertNotSame(a.payloads.get(0), b.payloads.get(0));
        assertEquals(List.of(1L), a.lost);
        assertEquals(List.of(1L), b.lost);
        assertTrue(other.payloads.isEmpty() && other.lost.isEmpty());
    }

    @Test
    void shouldSayWhenTheLastSubscriberOfAGroupLeaves() {
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        registry.add(4, a);
        registry.add(4, b);

        assertFalse(registry.remove(4, a));
        assertTrue(registry.remove(4, b));
        assertFalse(registry.remove(4, b), "nobody left to remove");
        assertEquals(Set.of(), registry.groups());
        registry.delivered(2, 4, 0, new byte[1], 0, 1);
        assertTrue(a.payloads.isEmpty());
    }
}
