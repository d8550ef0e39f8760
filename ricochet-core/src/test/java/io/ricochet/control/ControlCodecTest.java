package io.ricochet.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.ricochet.control.ControlDecodeException.Reason;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.MembershipEvent.Kind;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every message survives encode/decode, and the bytes are those drawn in docs/design/membership.md. */
class ControlCodecTest {

    @Test
    void shouldRoundTripEveryMessage() throws ControlDecodeException {
        for (ControlMessage message : Messages.all()) {
            byte[] frame = Messages.frame(message);
            assertEquals(frame.length - 4, Unpooled.wrappedBuffer(frame).readInt(), "length field of " + message);
            ControlMessage decoded = decodeFrame(frame);
            assertEquals(message, decoded);
            assertArrayEquals(frame, Messages.frame(decoded), "re-encoding " + message);
        }
    }

    @Test
    void shouldRoundTripTheLargestView() throws ControlDecodeException {
        GroupView view = Messages.view(1, GroupView.MAX_MEMBERS);
        byte[] frame = Messages.frame(view);
        assertTrue(frame.length <= ControlCodec.MAX_FRAME_BYTES, "frame of " + frame.length);
        assertTrue(frame.length > ControlCodec.MAX_FRAME_BYTES - ControlCodec.MEMBER_BYTES, "frame of " + frame.length);
        assertEquals(view, decodeFrame(frame));
    }

    @Test
    void shouldLayOutJoinAsDocumented() {
        assertEquals("0000000a" + "02" + "0000002a" + "00000007" + "00", hex(new Join(42, 7, 0)));
    }

    @Test
    void shouldLayOutRegisterAsDocumented() {
        assertEquals("0000000b" + "01" + "00000007" + "0a010203" + "1770",
                hex(new Register(7, Messages.address("10.1.2.3", 6000))));
    }

    @Test
    void shouldLayOutGroupViewAndMemberEventAsDocumented() {
        GroupView view = new GroupView(5, 0, 2L, Messages.address("239.255.0.5", 9100),
                Map.of(3, Messages.address("10.0.0.3", 5003)));
        assertEquals("00000020" + "20" + "00000005" + "00" + "0000000000000002" + "efff0005" + "238c" + "0001"
                + "00000003" + "0a000003" + "138b", hex(view));
        MemberEvent event = new MemberEvent(Kind.FAIL, 5, 2L, 3, Messages.address("10.0.0.3", 5003));
        assertEquals("00000018" + "21" + "03" + "00000005" + "0000000000000002" + "00000003" + "0a000003" + "138b",
                hex(event));
    }

    @Test
    void shouldLayOutTextAsLengthPrefixedUtf8() {
        assertEquals("00000006" + "12" + "0003" + "72c3a4", hex(new DetectorFailed("rä")));
        assertEquals("00000005" + "22" + "0002" + "0000", hex(new ErrorReply(2, "")));
    }

    @Test
    void shouldRejectEachKindOfMalformedBody() {
        assertReason(Reason.EMPTY, "");
        assertReason(Reason.UNKNOWN_TYPE, "7f");
        assertReason(Reason.TRUNCATED, "02" + "0000002a" + "000000");
        assertReason(Reason.TRAILING_BYTES, "10" + "00000001" + "00");
        assertReason(Reason.BAD_VALUE, "21" + "04" + "00000005" + "0000000000000002" + "00000003" + "0a000003"
                + "138b");
        assertReason(Reason.BAD_VALUE, "12" + "0002" + "c328");
        assertReason(Reason.BAD_VALUE, "20" + "00000005" + "00" + "0000000000000002" + "efff0005" + "238c" + "0002"
                + "00000003" + "0a000003" + "138b" + "00000003" + "0a000003" + "138b");
        assertReason(Reason.BAD_VALUE, "20" + "00000005" + "00" + "0000000000000002" + "efff0005" + "238c" + "0002"
                + "00000003" + "0a000003" + "138b");
    }

    @Test
    void shouldRefuseRecordsThatDoNotFitTheirFields() {
        assertThrows(IllegalArgumentException.class, () -> new Join(1, 1, 256));
        assertThrows(IllegalArgumentException.class, () -> new ErrorReply(-1, "x"));
        assertThrows(IllegalArgumentException.class, () -> new DetectorFailed("x".repeat(4097)));
        assertThrows(IllegalArgumentException.class, () -> new DetectorFailed("\uD800"));
        assertThrows(IllegalArgumentException.class,
                () -> new Register(1, InetSocketAddress.createUnresolved("host", 1)));
        assertThrows(IllegalArgumentException.class, () -> new Register(1, Messages.address("::1", 1)));
        assertThrows(IllegalArgumentException.class, () -> Messages.view(1, GroupView.MAX_MEMBERS + 1));
    }

    @Test
    void shouldTruncateLongErrorMessagesOnlyWhenAskedTo() {
        ErrorReply reply = ErrorReply.truncating(1, "€".repeat(5000));
        assertEquals(ControlCodec.MAX_TEXT_BYTES / 4, reply.message().length());
    }

    @Test
    void shouldTurnAMemberEventIntoTheEnginesMembershipEvent() {
        MemberEvent event = new MemberEvent(Kind.LEAVE, 8, 3L, 2, Messages.address("10.0.0.2", 1));
        assertEquals(MembershipEvent.leave(8, 2), event.toMembershipEvent());
    }

    private static void assertReason(Reason reason, String body) {
        ControlDecodeException e = assertThrows(ControlDecodeException.class,
                () -> ControlCodec.decode(Unpooled.wrappedBuffer(HexFormat.of().parseHex(body))), body);
        assertEquals(reason, e.reason(), e.getMessage());
    }

    private static ControlMessage decodeFrame(byte[] frame) throws ControlDecodeException {
        return ControlCodec.decode(Unpooled.wrappedBuffer(frame, 4, frame.length - 4));
    }

    private static String hex(ControlMessage message) {
        return HexFormat.of().formatHex(Messages.frame(message));
    }
}
