package io.ricochet.control.codec;

import com.google.common.net.InetAddresses;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Serving;
import io.ricochet.control.message.ViewRegion;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Sample messages of every type, and byte helpers, for the control tests. */
public final class Messages {
    private Messages() {
    }

    /** The IP literal {@code ip} at {@code port}, resolved without a lookup. */
    public static InetSocketAddress address(String ip, int port) {
        return new InetSocketAddress(InetAddresses.forString(ip), port);
    }

    /** A view with {@code members} members 10.0.0.n:5000+n, of incarnations spread over the whole u64 range. */
    static GroupView view(int group, int members) {
        Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
        Map<Integer, Long> incarnations = new TreeMap<>();
        for (int n = 1; n <= members; n++) {
            addresses.put(n * 7 - 20, address("10.0.0." + (n % 250 + 1), 5000 + n));
            incarnations.put(n * 7 - 20, n * 0x9E37_79B9_7F4A_7C15L);
        }
        return new GroupView(group, 0, 0x0123_4567_89AB_CDEFL, address("239.255.0.5", 9100), addresses,
                incarnations);
    }

    /** A one-member view of node {@code node} at {@code unicast}, of incarnation {@code incarnation}. */
    static GroupView view(int group, int node, InetSocketAddress unicast, long incarnation) {
        return new GroupView(group, 0, 2L, address("239.255.0.5", 9100), Map.of(node, unicast),
                Map.of(node, incarnation));
    }

    /** Group 5 of nodes 3 and 4 in two regions (239.254.0.9 holds 4, listed first; 239.254.0.7 holds 3). */
    static GroupView regionView() {
        return new GroupView(5, 0, 2L, address("239.254.0.5", 9100),
                Map.of(3, address("10.0.0.3", 5003), 4, address("10.0.0.4", 5004)), Map.of(3, 1L, 4, 1L),
                List.of(new ViewRegion(address("239.254.0.9", 9100), List.of(4)),
                        new ViewRegion(address("239.254.0.7", 9100), List.of(3))));
    }

    /** At least one of every message type, with edge values (negative ids, max ports, large ids, text). */
    static List<ControlMessage> all() {
        return List.of(
                new Register(7, address("10.1.2.3", 6000), 1_700_000_000_000L),
                new Register(-1, address("255.255.255.255", 65535), -1L),
                new Register(0, address("0.0.0.0", 0), 0L),
                new Register(3, address("10.0.0.3", 5003), 5L, 2, 7500, List.of(new KeyFingerprint(255, -1L))),
                new Join(42, 7, Join.PROTOCOL_RICOCHET),
                new Join(Integer.MIN_VALUE, Integer.MAX_VALUE, 255),
                new Leave(-3, 0),
                new NodeFailed(9),
                new NodeRecovered(-9),
                new DetectorFailed("rack-7"),
                new DetectorRecovered("räck-ü €𝄞"),
                new DetectorFailed(""),
                view(5, 0),
                view(-6, 3),
                regionView(),
                new GroupView(1, 1, -1L, address("239.255.255.255", 1), Map.of(0, address("0.0.0.0", 0)),
                        Map.of(0, Long.MIN_VALUE)),
                new MemberEvent(MemberEventKind.JOIN, 5, 1L, 3, address("10.0.0.3", 5003), 1_700_000_000_000L),
                new MemberEvent(MemberEventKind.LEAVE, -5, Long.MAX_VALUE, 4, address("10.0.0.4", 5004), 0L),
                new MemberEvent(MemberEventKind.FAIL, 0, Long.MIN_VALUE, -4, address("10.0.0.5", 1), -1L),
                new ErrorReply(ErrorCode.WRONG_PARTITION, "group 5 belongs to partition 1"),
                new ErrorReply(65535, ""),
                new Serving(0, 1, 0L),
                new Serving(65534, 65535, -1L),
                Redirect.to(address("10.0.0.2", 7101)),
                Redirect.unknown(),
                new Register(5, address("10.0.0.5", 7300), 9L, 65535, 7500),
                new Watch("rack-7", 7),
                new Watch("", Watch.STANDBY),
                new WatchList(List.of()),
                new GmsStatus(7L, 142L),
                new GmsStatus(-1L, Long.MIN_VALUE),
                new WatchList(List.of(new WatchList.Target(-4, 0, address("10.0.0.4", 1)),
                        new WatchList.Target(12, 65535, address("255.255.255.255", 65535)))));
    }

    /** {@code message} as one whole frame. */
    static byte[] frame(ControlMessage message) {
        ByteBuf buf = Unpooled.buffer();
        ControlCodec.encode(message, buf);
        return ByteBufUtil.getBytes(buf);
    }
}
