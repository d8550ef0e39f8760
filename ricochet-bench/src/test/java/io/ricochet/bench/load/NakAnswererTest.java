package io.ricochet.bench.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketRefFlyweight;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NakAnswererTest {
    private static final int SELF = 7;
    private static final int RECEIVER = 1;
    private static final int[] GROUPS = {100, 101};

    private final byte[] out = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
    private RetransmitRing ring;
    private FrameSource source;
    private NakAnswerer answerer;

    @BeforeEach
    void sendSome() {
        ring = new RetransmitRing(GROUPS.length, 4, DataFlyweight.DATA_HEADER_LENGTH + 100);
        source = new FrameSource(SELF, GROUPS, 100, ring);
        for (int i = 0; i < 12; i++) {
            source.next(); // seqnos 0..5 in each group; the ring keeps 2..5
        }
        answerer = new NakAnswerer(SELF, GROUPS, ring);
    }

    private static byte[] nak(int origin, int group, long seqno) {
        byte[] frame = new byte[PacketRefFlyweight.NAK_LENGTH];
        new PacketRefFlyweight().wrap(frame, 0).write(FrameType.NAK, RECEIVER, origin, group, seqno);
        return frame;
    }

    private int answer(byte[] frame) {
        return answerer.answer(frame, frame.length, out);
    }

    @Test
    void shouldRetransmitWhatIsStillInTheRing() {
        int length = answer(nak(SELF, 101, 4));
        assertTrue(FrameValidator.isValid(out, 0, length));
        DataFlyweight retransmit = new DataFlyweight().wrap(out, 0);
        assertEquals(FrameType.RETRANSMIT, retransmit.type());
        assertEquals(SELF, retransmit.source());
        assertEquals(SELF, retransmit.origin());
        assertEquals(101, retransmit.group());
        assertEquals(4, retransmit.seqno());
        DataFlyweight original = new DataFlyweight().wrap(ring.frame(ring.find(1, 4)), 0);
        assertEquals(FrameType.DATA, original.type());
        int from = original.payloadOffset();
        assertArrayEquals(Arrays.copyOfRange(original.buffer(), from, from + 100),
                Arrays.copyOfRange(out, retransmit.payloadOffset(), retransmit.payloadOffset() + 100));
        assertEquals(1, answerer.retransmits());
    }

    @Test
    void shouldSayGoneForWhatLeftTheRingOrWasNeverSent() {
        for (long seqno : new long[] {1, 6, 1000}) {
            int length = answer(nak(SELF, 100, seqno));
            assertEquals(PacketRefFlyweight.LENGTH, length);
            assertTrue(FrameValidator.isValid(out, 0, length));
            PacketRefFlyweight gone = new PacketRefFlyweight().wrap(out, 0);
            assertEquals(FrameType.GONE, gone.type());
            assertEquals(SELF, gone.origin());
            assertEquals(100, gone.group());
            assertEquals(seqno, gone.seqno());
        }
        assertEquals(3, answerer.gones());
        assertEquals(0, answerer.retransmits());
    }

    @Test
    void shouldNotAnswerWhatIsNotANakForThisNode() {
        assertEquals(0, answer(nak(SELF + 1, 100, 3)), "another origin's packet");
        assertEquals(0, answer(nak(SELF, 999, 3)), "a group this node does not send to");
        byte[] session = nak(SELF, 100, 3);
        session[HeaderFlyweight.TYPE_OFFSET] = FrameType.SESSION;
        assertEquals(0, answer(session), "not a NAK");
        byte[] truncated = Arrays.copyOf(nak(SELF, 100, 3), PacketRefFlyweight.NAK_LENGTH - 1);
        assertEquals(0, answer(truncated), "malformed");
        assertEquals(4, answerer.refused());
        assertEquals(0, answerer.retransmits() + answerer.gones());
    }
}
