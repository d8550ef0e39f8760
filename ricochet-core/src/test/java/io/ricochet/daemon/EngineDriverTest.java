package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.loss.LossScope;
import io.ricochet.wire.FrameType;
import org.junit.jupiter.api.Test;

class EngineDriverTest {
    private static final int SELF = 3;

    @Test
    void shouldInjectLossIntoOtherNodesDataOnlyByDefault() {
        assertTrue(EngineDriver.injectable(FrameType.DATA, 5, SELF, LossScope.DATA));
        assertFalse(EngineDriver.injectable(FrameType.REPAIR, 5, SELF, LossScope.DATA));
        assertFalse(EngineDriver.injectable(FrameType.SESSION, 5, SELF, LossScope.DATA));
    }

    @Test
    void shouldInjectLossIntoEveryTypeWithScopeAll() {
        for (int type : new int[] {FrameType.DATA, FrameType.REPAIR, FrameType.NAK, FrameType.RETRANSMIT,
                FrameType.SESSION}) {
            assertTrue(EngineDriver.injectable(type, 5, SELF, LossScope.ALL), "type " + type);
        }
    }

    @Test
    void shouldNeverDropThisNodesOwnLoopedBackFrames() {
        // They are no loss: the engine discards them. Counting them inflated injectedDrops by the loss rate
        // times this node's own sends.
        assertFalse(EngineDriver.injectable(FrameType.DATA, SELF, SELF, LossScope.DATA));
        assertFalse(EngineDriver.injectable(FrameType.SESSION, SELF, SELF, LossScope.ALL));
    }
}
