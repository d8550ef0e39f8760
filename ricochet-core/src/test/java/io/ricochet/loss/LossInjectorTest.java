package io.ricochet.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.Frames;
import io.ricochet.wire.FrameType;
import org.junit.jupiter.api.Test;

class LossInjectorTest {
    private static final int SELF = 3;

    @Test
    void shouldInjectLossIntoOtherNodesDataOnlyByDefault() {
        assertTrue(LossInjector.applies(FrameType.DATA, 5, SELF, LossScope.DATA));
        assertFalse(LossInjector.applies(FrameType.REPAIR, 5, SELF, LossScope.DATA));
        assertFalse(LossInjector.applies(FrameType.SESSION, 5, SELF, LossScope.DATA));
    }

    @Test
    void shouldInjectLossIntoEveryTypeWithScopeAll() {
        for (int type : new int[] {FrameType.DATA, FrameType.REPAIR, FrameType.NAK, FrameType.RETRANSMIT,
                FrameType.SESSION}) {
            assertTrue(LossInjector.applies(type, 5, SELF, LossScope.ALL), "type " + type);
        }
    }

    @Test
    void shouldNeverDropThisNodesOwnLoopedBackFrames() {
        // They are no loss: the engine discards them. Counting them inflated the injected drops by the loss rate
        // times this node's own sends.
        assertFalse(LossInjector.applies(FrameType.DATA, SELF, SELF, LossScope.DATA));
        assertFalse(LossInjector.applies(FrameType.SESSION, SELF, SELF, LossScope.ALL));
    }

    @Test
    void shouldConsultTheModelOncePerExposedFrameAndNameTheDroppedData() {
        int[] calls = new int[1];
        LossInjector injector = new LossInjector(() -> ++calls[0] % 2 == 1, LossScope.DATA, SELF);
        byte[] data = Frames.data(5, 2, 9);
        byte[] own = Frames.data(SELF, 2, 0);
        byte[] nak = Frames.ref(FrameType.NAK, 5, Frames.id(SELF, 2, 0));

        assertTrue(injector.drop(data, 0));
        assertFalse(injector.drop(own, 0));
        assertFalse(injector.drop(nak, 0));
        assertFalse(injector.drop(data, 0));

        assertEquals(2, calls[0], "only the two exposed frames drew from the model");
        assertEquals(Frames.id(5, 2, 9), injector.droppedData(data, 0, data.length));
        assertNull(injector.droppedData(nak, 0, nak.length));
    }
}
