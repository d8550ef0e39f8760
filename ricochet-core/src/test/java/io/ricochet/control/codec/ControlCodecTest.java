package io.ricochet.control.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlDecodeException.Reason;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Serving;
import io.ricochet.control.message.ViewRegion;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every message survives encode/decode, and the bytes are those drawn in docs/design/membership.md. */
class ControlCodecTest {
    /** GROUP_VIEW up to its member count: group 5, protocol 0, view 2, 239.255.0.5:9100. */
    private static final String VIEW_HEAD = "20" + "00000005" + "00" + "0000000000000002" + "efff0005" + "238c";

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
    void shouldCarryTheIncarnationAtTheEndOfEachMessage() throws ControlDecodeException {
        // REGISTER is the exception: its rack and heartbeat port follow the incarnation (4 bytes).
        InetSocketAddress unicast = Messages.address("10.0.0.3", 5003);
        for (long incarnation : new long[] {0L, 1L, 1_700_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE, -1L}) {
            List<ControlMessage> messages = List.of(
                    new Register(3, unicast, incarnation),
                    new MemberEvent(MemberEventKind.JOIN, 5, 2L, 3, unicast, incarnation),
                    Messages.view(5, 3, unicast, incarnation));
            for (ControlMessage message : messages) {
                byte[] frame = Messages.frame(message);
                int tail = message instanceof Register ? 12 : message instanceof GroupView ? 10 : 8;
                assertEquals(incarnation, Unpooled.wrappedBuffer(frame).getLong(frame.length - tail), "in " + message);
                assertEquals(message, decodeFrame(frame));
            }
        }
    }

    @Test
    void shouldRoundTripTheLargestView() throws ControlDecodeException {
        assertEquals(3639, GroupView.MAX_MEMBERS, "the bound docs/design/membership.md gives");
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
        assertEquals("00000017" + "01" + "00000007" + "0a010203" + "1770" + "0000018bcfe56800" + "0003" + "1d4c",
                hex(new Register(7, Messages.address("10.1.2.3", 6000), 1_700_000_000_000L, 3, 7500)));
    }

    @Test
    void shouldAppendTheKeysOfAnAuthenticatedRegisterAndNothingForAnInsecureOne() throws ControlDecodeException {
        Register register = new Register(7, Messages.address("10.1.2.3", 6000), 1_700_000_000_000L, 3, 7500,
                List.of(new KeyFingerprint(2, 0x0123456789abcdefL), new KeyFingerprint(1, -1L)));
        assertEquals("0000002a" + "01" + "00000007" + "0a010203" + "1770" + "0000018bcfe56800" + "0003" + "1d4c"
                + "02" + "02" + "0123456789abcdef" + "01" + "ffffffffffffffff", hex(register));
        assertEquals(register, decodeFrame(Messages.frame(register)));
        assertEquals(List.of(), ((Register) decodeFrame(Messages.frame(new Register(7,
                Messages.address("10.1.2.3", 6000), 1L)))).keys(), "a REGISTER without keys decodes with none");
    }

    @Test
    void shouldRefuseRegisterKeysThatAreMiscountedRepeatedOrCut() {
        String head = "01" + "00000007" + "0a010203" + "1770" + "0000018bcfe56800" + "0003" + "1d4c";
        for (String keys : new String[] {"00", "03" + "01" + "0000000000000001", "01" + "01" + "00000000",
                "02" + "01" + "0000000000000001" + "01" + "0000000000000002", "01" + "00" + "0000000000000001"}) {
            assertThrows(ControlDecodeException.class, () -> ControlCodec.decode(Unpooled.wrappedBuffer(
                    HexFormat.of().parseHex(head + keys))), keys);
        }
    }

    @Test
    void shouldLayOutGroupViewAndMemberEventAsDocumented() {
        InetSocketAddress unicast = Messages.address("10.0.0.3", 5003);
        GroupView view = Messages.view(5, 3, unicast, 1_700_000_000_000L);
        assertEquals("0000002a" + "20" + "00000005" + "00" + "0000000000000002" + "efff0005" + "238c" + "0001"
                + "00000003" + "0a000003" + "138b" + "0000018bcfe56800" + "0000", hex(view));
        MemberEvent event = new MemberEvent(MemberEventKind.FAIL, 5, 2L, 3, unicast, 1_700_000_000_000L);
        assertEquals("00000020" + "21" + "03" + "00000005" + "0000000000000002" + "00000003" + "0a000003" + "138b"
                + "0000018bcfe56800", hex(event));
    }

    @Test
    void shouldLayOutRegionsAsDocumented() throws ControlDecodeException {
        GroupView view = Messages.regionView();
        // 2 members (3, 4), 2 regions: 239.254.0.9:9100 holds 4, 239.254.0.7:9100 holds 3.
        String hex = hex(view);
        assertTrue(hex.endsWith("0002" + "effe0009" + "238c" + "effe0007" + "238c" + "0001" + "0000"), hex);
        assertEquals(view, decodeFrame(Messages.frame(view)));
        assertEquals(Messages.address("239.254.0.7", 9100), view.listenAddress(3));
        assertEquals(Messages.address("239.254.0.5", 9100), view.listenAddress(99));
        assertEquals(List.of(Messages.address("239.254.0.9", 9100), Messages.address("239.254.0.7", 9100)),
                view.destinations());
        GroupView plain = Messages.view(5, 3);
        assertEquals(List.of(plain.multicast()), plain.destinations());
    }

    @Test
    void shouldRejectHostileRegionLists() {
        String members = "0002" + "00000003" + "0a000003" + "138b" + "0000000000000001"
                + "00000004" + "0a000004" + "138c" + "0000000000000001";
        String two = "effe0009" + "238c" + "effe0007" + "238c";
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + members + "0003" + two + "effe0001238c" + "0000" + "0001");
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + members + "0002" + two + "0001" + "0002");
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + members + "0002" + two + "0001" + "0001");
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + members + "0002" + two + "0001");
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + members + "0002" + two + "0001" + "0000" + "00");
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + members + "ffff" + two);
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + members);
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + "0000" + "0001" + two.substring(0, 12));
    }

    @Test
    void shouldRefuseRegionsThatDoNotSplitTheMembers() {
        GroupView ok = Messages.regionView();
        InetSocketAddress a = Messages.address("239.254.0.7", 9100);
        List<ViewRegion> outsider = List.of(new ViewRegion(a, List.of(3, 4, 5)));
        List<ViewRegion> twice = List.of(new ViewRegion(a, List.of(3, 4)), new ViewRegion(a, List.of(4)));
        List<ViewRegion> missing = List.of(new ViewRegion(a, List.of(3)));
        for (List<ViewRegion> bad : List.of(outsider, twice, missing)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GroupView(ok.group(),
                    0, 1L, ok.multicast(), ok.members(), ok.incarnations(), bad));
            assertTrue(e.getMessage().contains("region"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new ViewRegion(a, List.of()));
        assertTrue(GroupView.fitsWithRegions(2519, 2519));
        assertTrue(!GroupView.fitsWithRegions(2520, 2520));
        assertTrue(!GroupView.fitsWithRegions(3, 4));
        assertTrue(GroupView.fitsWithRegions(3639, 0));
    }

    @Test
    void shouldLayOutTextAsLengthPrefixedUtf8() {
        assertEquals("00000006" + "12" + "0003" + "72c3a4", hex(new DetectorFailed("rä")));
        assertEquals("00000005" + "22" + "0002" + "0000", hex(new ErrorReply(2, "")));
    }

    @Test
    void shouldLayOutServingAndRedirectAsDocumented() {
        assertEquals("0000000d" + "23" + "0001" + "0003" + "0000000000000007", hex(new Serving(1, 3, 7L)));
        assertEquals("00000007" + "24" + "0a000002" + "1bbd", hex(Redirect.to(Messages.address("10.0.0.2", 7101))));
        assertEquals("00000007" + "24" + "00000000" + "0000", hex(Redirect.unknown()));
    }

    @Test
    void shouldLayOutGmsStatusAsDocumented() {
        assertEquals("00000011" + "26" + "0000000000000003" + "000000000000008e", hex(new GmsStatus(3, 142)));
    }

    @Test
    void shouldLayOutWatchAndWatchListAsDocumented() {
        assertEquals("00000008" + "14" + "0003" + "723132" + "0002", hex(new Watch("r12", 2)));
        WatchList list = new WatchList(java.util.List.of(
                new WatchList.Target(3, 2, Messages.address("10.0.0.3", 7500)),
                new WatchList.Target(9, 2, Messages.address("10.0.0.9", 7500))));
        assertEquals("0000001b" + "25" + "0002" + "00000003" + "0002" + "0a000003" + "1d4c"
                + "00000009" + "0002" + "0a000009" + "1d4c", hex(list));
        assertReason(Reason.BAD_VALUE, "25" + "0002" + "00000009" + "0002" + "0a000009" + "1d4c"
                + "00000003" + "0002" + "0a000003" + "1d4c");
        assertReason(Reason.BAD_VALUE, "25" + "0002" + "00000003" + "0002" + "0a000003" + "1d4c");
    }

    @Test
    void shouldRejectServingOfNoPartitionAndRedirectsToNowhere() {
        assertReason(Reason.BAD_VALUE, "23" + "0003" + "0003" + "0000000000000007");
        assertReason(Reason.BAD_VALUE, "23" + "0000" + "0000" + "0000000000000007");
        assertReason(Reason.BAD_VALUE, "24" + "0a000002" + "0000");
        assertReason(Reason.BAD_VALUE, "24" + "00000000" + "1bbd");
        assertThrows(IllegalArgumentException.class, () -> new Serving(2, 2, 0L));
        assertThrows(IllegalArgumentException.class, () -> Redirect.to(Messages.address("0.0.0.0", 7101)));
    }

    @Test
    void shouldRejectEachKindOfMalformedBody() {
        assertReason(Reason.EMPTY, "");
        assertReason(Reason.UNKNOWN_TYPE, "7f");
        assertReason(Reason.TRUNCATED, "02" + "0000002a" + "000000");
        assertReason(Reason.TRAILING_BYTES, "10" + "00000001" + "00");
        assertReason(Reason.BAD_VALUE, "21" + "04" + "00000005" + "0000000000000002" + "00000003" + "0a000003"
                + "138b" + "0000018bcfe56800");
        assertReason(Reason.BAD_VALUE, "12" + "0002" + "c328");
        String member = "00000003" + "0a000003" + "138b" + "0000018bcfe56800";
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + "0002" + member + member);
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + "0002" + member);
    }

    @Test
    void shouldRejectTheLayoutsWithoutIncarnations() {
        assertReason(Reason.TRUNCATED, "01" + "00000007" + "0a010203" + "1770");
        assertReason(Reason.TRUNCATED, "01" + "00000007" + "0a010203" + "1770" + "0000018bcfe56800");
        assertReason(Reason.TRUNCATED, "21" + "03" + "00000005" + "0000000000000002" + "00000003" + "0a000003"
                + "138b");
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + "0001" + "00000003" + "0a000003" + "138b");
        assertReason(Reason.BAD_VALUE, VIEW_HEAD + "0001" + "00000003" + "0a000003" + "138b" + "0000000000000001");
    }

    @Test
    void shouldRefuseRecordsThatDoNotFitTheirFields() {
        assertThrows(IllegalArgumentException.class, () -> new Join(1, 1, 256));
        assertThrows(IllegalArgumentException.class, () -> new ErrorReply(-1, "x"));
        assertThrows(IllegalArgumentException.class, () -> new DetectorFailed("x".repeat(4097)));
        assertThrows(IllegalArgumentException.class, () -> new DetectorFailed("\uD800"));
        assertThrows(IllegalArgumentException.class,
                () -> new Register(1, InetSocketAddress.createUnresolved("host", 1), 0L));
        assertThrows(IllegalArgumentException.class, () -> new Register(1, Messages.address("::1", 1), 0L));
        assertThrows(IllegalArgumentException.class, () -> Messages.view(1, GroupView.MAX_MEMBERS + 1));
        InetSocketAddress multicast = Messages.address("239.255.0.5", 9100);
        Map<Integer, InetSocketAddress> members = Map.of(3, Messages.address("10.0.0.3", 5003));
        assertThrows(IllegalArgumentException.class, () -> new GroupView(5, 0, 1L, multicast, members, Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new GroupView(5, 0, 1L, multicast, members, Map.of(3, 1L, 4, 1L)));
        Map<Integer, Long> unknown = new HashMap<>();
        unknown.put(3, null);
        assertThrows(NullPointerException.class, () -> new GroupView(5, 0, 1L, multicast, members, unknown));
    }

    @Test
    void shouldTruncateLongErrorMessagesOnlyWhenAskedTo() {
        ErrorReply reply = ErrorReply.truncating(1, "€".repeat(5000));
        assertEquals(ControlCodec.MAX_TEXT_BYTES / 4, reply.message().length());
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
