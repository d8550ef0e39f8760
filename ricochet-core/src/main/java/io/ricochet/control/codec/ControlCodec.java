package io.ricochet.control.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.ricochet.control.codec.ControlDecodeException.Reason;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.KeyFingerprint;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MemberEventKind;
import io.ricochet.control.message.MessageType;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Serving;
import io.ricochet.control.message.ViewRegion;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;

/**
 * The bytes of the control protocol, both ways. A frame is {@code [u32 length][u8 type][body]}, big-endian, where
 * {@code length} counts the type byte and the body and is at most {@link #MAX_LENGTH_FIELD}; each body is drawn in
 * {@code docs/design/membership.md}, the source of truth for this class.
 *
 * <p>{@link #decode} trusts nothing: it checks every length before reading, rejects unknown types, unknown event
 * kinds, invalid UTF-8, unsorted or repeated members and trailing bytes, and throws only
 * {@link ControlDecodeException}. A frame it accepts re-encodes to exactly the same bytes.
 */
public final class ControlCodec {
    /** Bytes of the length field that starts every frame. */
    public static final int LENGTH_FIELD_BYTES = 4;
    /** The largest frame, length field included: 64 KiB. */
    public static final int MAX_FRAME_BYTES = 64 * 1024;
    /** The largest value of the length field. */
    public static final int MAX_LENGTH_FIELD = MAX_FRAME_BYTES - LENGTH_FIELD_BYTES;
    /** The longest text (detector id, error message), in bytes of UTF-8. */
    public static final int MAX_TEXT_BYTES = 4096;
    /**
     * GROUP_VIEW body bytes besides the members and regions: group, protocol, viewId, multicast address, member
     * count, region count.
     */
    public static final int GROUP_VIEW_FIXED_BYTES = 4 + 1 + 8 + Ipv4.SOCKET_ADDRESS_BYTES + 2 + 2;
    /** Bytes of one WATCH_LIST target: node id, rack, heartbeat address and port. */
    static final int WATCH_TARGET_BYTES = 4 + 2 + Ipv4.SOCKET_ADDRESS_BYTES;
    /** Bytes of one REGISTER key: key id and fingerprint. */
    static final int KEY_BYTES = 1 + 8;
    /** Bytes of one GROUP_VIEW member: node id, address, port, incarnation. */
    public static final int MEMBER_BYTES = 4 + Ipv4.SOCKET_ADDRESS_BYTES + 8;

    /** How REDIRECT says that no leader is known. */
    private static final InetSocketAddress UNKNOWN_LEADER = Ipv4.socketAddress(0, 0);
    private static final int KIND_JOIN = 1;
    private static final int KIND_LEAVE = 2;
    private static final int KIND_FAIL = 3;

    private ControlCodec() {
    }

    /** Appends {@code message} to {@code out} as one whole frame, length field included. */
    public static void encode(ControlMessage message, ByteBuf out) {
        int start = out.writerIndex();
        out.writeInt(0);
        out.writeByte(message.type());
        writeBody(message, out);
        int length = out.writerIndex() - start - LENGTH_FIELD_BYTES;
        if (length > MAX_LENGTH_FIELD) {
            throw new IllegalStateException(MessageType.name(message.type()) + " frame of " + length
                    + " bytes exceeds " + MAX_LENGTH_FIELD + ": the record limits should prevent this");
        }
        out.setInt(start, length);
    }

    /**
     * Decodes one frame without its length field: {@code frame}'s readable bytes are the type byte and the body,
     * and all of them must be consumed.
     */
    public static ControlMessage decode(ByteBuf frame) throws ControlDecodeException {
        if (!frame.isReadable()) {
            throw new ControlDecodeException(Reason.EMPTY, "empty frame: no type byte");
        }
        if (frame.readableBytes() > MAX_LENGTH_FIELD) {
            throw new ControlDecodeException(Reason.BAD_VALUE, "frame of " + frame.readableBytes()
                    + " bytes is longer than " + MAX_LENGTH_FIELD);
        }
        int type = frame.readUnsignedByte();
        FrameReader in = new FrameReader(frame, MessageType.name(type));
        ControlMessage message = switch (type) {
            case MessageType.REGISTER -> new Register(in.i32(), in.socketAddress(), in.u64(), in.u16(), in.u16(),
                    readKeys(in));
            case MessageType.JOIN -> new Join(in.i32(), in.i32(), in.u8());
            case MessageType.LEAVE -> new Leave(in.i32(), in.i32());
            case MessageType.NODE_FAILED -> new NodeFailed(in.i32());
            case MessageType.NODE_RECOVERED -> new NodeRecovered(in.i32());
            case MessageType.DETECTOR_FAILED -> new DetectorFailed(in.text());
            case MessageType.DETECTOR_RECOVERED -> new DetectorRecovered(in.text());
            case MessageType.GROUP_VIEW -> readGroupView(in);
            case MessageType.MEMBER_EVENT -> readMemberEvent(in);
            case MessageType.ERROR -> new ErrorReply(in.u16(), in.text());
            case MessageType.SERVING -> readServing(in);
            case MessageType.REDIRECT -> readRedirect(in);
            case MessageType.WATCH -> new Watch(in.text(), in.u16());
            case MessageType.WATCH_LIST -> readWatchList(in);
            case MessageType.GMS_STATUS -> new GmsStatus(in.u64(), in.u64());
            default -> throw new ControlDecodeException(Reason.UNKNOWN_TYPE,
                    "unknown message type " + MessageType.name(type));
        };
        in.end();
        return message;
    }

    private static void writeBody(ControlMessage message, ByteBuf out) {
        if (message instanceof Register m) {
            out.writeInt(m.nodeId());
            writeAddress(m.unicast(), out);
            out.writeLong(m.incarnation());
            out.writeShort(m.rack()).writeShort(m.heartbeatPort());
            if (!m.keys().isEmpty()) {
                out.writeByte(m.keys().size());
                m.keys().forEach(k -> out.writeByte(k.keyId()).writeLong(k.fingerprint()));
            }
        } else if (message instanceof Join m) {
            out.writeInt(m.group()).writeInt(m.nodeId()).writeByte(m.protocol());
        } else if (message instanceof Leave m) {
            out.writeInt(m.group()).writeInt(m.nodeId());
        } else if (message instanceof NodeFailed m) {
            out.writeInt(m.nodeId());
        } else if (message instanceof NodeRecovered m) {
            out.writeInt(m.nodeId());
        } else if (message instanceof DetectorFailed m) {
            writeText(m.detectorId(), out);
        } else if (message instanceof DetectorRecovered m) {
            writeText(m.detectorId(), out);
        } else if (message instanceof GroupView m) {
            writeGroupView(m, out);
        } else if (message instanceof MemberEvent m) {
            out.writeByte(kindCode(m.kind())).writeInt(m.group()).writeLong(m.viewId()).writeInt(m.nodeId());
            writeAddress(m.address(), out);
            out.writeLong(m.incarnation());
        } else if (message instanceof ErrorReply m) {
            out.writeShort(m.code());
            writeText(m.message(), out);
        } else if (message instanceof Serving m) {
            out.writeShort(m.partition()).writeShort(m.partitions()).writeLong(m.term());
        } else if (message instanceof Redirect m) {
            writeAddress(m.leader().orElse(UNKNOWN_LEADER), out);
        } else if (message instanceof GmsStatus m) {
            out.writeLong(m.term()).writeLong(m.commitIndex());
        } else if (message instanceof Watch m) {
            writeText(m.detectorId(), out);
            out.writeShort(m.rack());
        } else if (message instanceof WatchList m) {
            out.writeShort(m.targets().size());
            for (WatchList.Target t : m.targets()) {
                out.writeInt(t.nodeId()).writeShort(t.rack());
                writeAddress(t.heartbeat(), out);
            }
        } else {
            throw new IllegalStateException("no encoding for " + message);
        }
    }

    private static void writeGroupView(GroupView view, ByteBuf out) {
        out.writeInt(view.group()).writeByte(view.protocol()).writeLong(view.viewId());
        writeAddress(view.multicast(), out);
        out.writeShort(view.members().size());
        view.members().forEach((node, address) -> {
            out.writeInt(node);
            writeAddress(address, out);
            out.writeLong(view.incarnations().get(node));
        });
        out.writeShort(view.regions().size());
        view.regions().forEach(r -> writeAddress(r.multicast(), out));
        if (!view.regions().isEmpty()) {
            Map<Integer, Integer> regionOf = new HashMap<>();
            for (int i = 0; i < view.regions().size(); i++) {
                for (int node : view.regions().get(i).members()) {
                    regionOf.put(node, i);
                }
            }
            view.members().keySet().forEach(node -> out.writeShort(regionOf.get(node)));
        }
    }

    private static GroupView readGroupView(FrameReader in) throws ControlDecodeException {
        int group = in.i32();
        int protocol = in.u8();
        long viewId = in.u64();
        InetSocketAddress multicast = in.socketAddress();
        int count = in.u16();
        if (count > GroupView.MAX_MEMBERS) {
            throw in.bad(count + " members are more than a view may list (" + GroupView.MAX_MEMBERS + ")");
        }
        if (in.remaining() < count * MEMBER_BYTES + 2) {
            throw in.bad(count + " members and a region count need " + (count * MEMBER_BYTES + 2)
                    + " bytes, the frame has " + in.remaining());
        }
        Map<Integer, InetSocketAddress> members = new HashMap<>(count * 2);
        Map<Integer, Long> incarnations = new HashMap<>(count * 2);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            int node = in.i32();
            if (node <= previous) {
                throw in.bad("member " + node + " is not above the previous one (" + previous
                        + "): members are sorted and distinct");
            }
            previous = node;
            members.put(node, in.socketAddress());
            incarnations.put(node, in.u64());
        }
        List<ViewRegion> regions = readRegions(in, new TreeMap<>(members).navigableKeySet());
        return new GroupView(group, protocol, viewId, multicast, members, incarnations, regions);
    }

    /** A GROUP_VIEW's regions: their count, their addresses, then each member's region index (if any region). */
    private static List<ViewRegion> readRegions(FrameReader in, NavigableSet<Integer> members)
            throws ControlDecodeException {
        int count = in.u16();
        if (count > members.size()) {
            throw in.bad(count + " regions for " + members.size() + " members: a region has at least one");
        }
        int need = count * Ipv4.SOCKET_ADDRESS_BYTES + (count > 0 ? 2 * members.size() : 0);
        if (in.remaining() != need) {
            throw in.bad(count + " regions need " + need + " bytes, the frame has " + in.remaining());
        }
        if (!GroupView.fitsWithRegions(members.size(), count)) {
            throw in.bad(members.size() + " members in " + count + " regions are more than a view may list");
        }
        List<InetSocketAddress> addresses = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            addresses.add(in.socketAddress());
        }
        List<List<Integer>> regionMembers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            regionMembers.add(new ArrayList<>());
        }
        for (int node : count > 0 ? members : Set.<Integer>of()) {
            int index = in.u16();
            if (index >= count) {
                throw in.bad("member " + node + " is in region " + index + ", the view has " + count);
            }
            regionMembers.get(index).add(node);
        }
        List<ViewRegion> regions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (regionMembers.get(i).isEmpty()) {
                throw in.bad("region " + i + " (" + addresses.get(i) + ") has no member");
            }
            regions.add(new ViewRegion(addresses.get(i), regionMembers.get(i)));
        }
        return regions;
    }

    /**
     * REGISTER's keys: none if the frame ends after the heartbeat port (an insecure daemon, or one from before keys
     * were sent), else a count of 1 to {@link Register#MAX_KEYS} and that many (key id, fingerprint).
     */
    private static List<KeyFingerprint> readKeys(FrameReader in) throws ControlDecodeException {
        if (in.remaining() == 0) {
            return List.of();
        }
        int count = in.u8();
        if (count < 1 || count > Register.MAX_KEYS) {
            throw in.bad(count + " keys: a REGISTER names 1 to " + Register.MAX_KEYS + " (or none, with no count)");
        }
        if (in.remaining() != count * KEY_BYTES) {
            throw in.bad(count + " keys need " + count * KEY_BYTES + " bytes, the frame has " + in.remaining());
        }
        List<KeyFingerprint> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int id = in.u8();
            if (id < 1 || (i > 0 && id == keys.get(0).keyId())) {
                throw in.bad("key id " + id + " is 0 or named twice");
            }
            keys.add(new KeyFingerprint(id, in.u64()));
        }
        return keys;
    }

    private static WatchList readWatchList(FrameReader in) throws ControlDecodeException {
        int count = in.u16();
        if (count > WatchList.MAX_TARGETS) {
            throw in.bad(count + " targets are more than a list carries (" + WatchList.MAX_TARGETS + ")");
        }
        if (in.remaining() != count * WATCH_TARGET_BYTES) {
            throw in.bad(count + " targets need " + count * WATCH_TARGET_BYTES + " bytes, the frame has "
                    + in.remaining());
        }
        java.util.List<WatchList.Target> targets = new java.util.ArrayList<>(count);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            int node = in.i32();
            if (node <= previous) {
                throw in.bad("target " + node + " is not above the previous one (" + previous + ")");
            }
            previous = node;
            int rack = in.u16();
            targets.add(new WatchList.Target(node, rack, in.socketAddress()));
        }
        return new WatchList(targets);
    }

    private static Serving readServing(FrameReader in) throws ControlDecodeException {
        int partition = in.u16();
        int partitions = in.u16();
        long term = in.u64();
        if (partitions < 1 || partition >= partitions) {
            throw in.bad("partition " + partition + " of " + partitions + " does not exist");
        }
        return new Serving(partition, partitions, term);
    }

    private static Redirect readRedirect(FrameReader in) throws ControlDecodeException {
        InetSocketAddress leader = in.socketAddress();
        if (leader.equals(UNKNOWN_LEADER)) {
            return Redirect.unknown();
        }
        if (leader.getAddress().isAnyLocalAddress() || leader.getPort() == 0) {
            throw in.bad("leader " + leader + " is neither an address nor the unknown leader 0.0.0.0:0");
        }
        return Redirect.to(leader);
    }

    private static MemberEvent readMemberEvent(FrameReader in) throws ControlDecodeException {
        int code = in.u8();
        MemberEventKind kind = switch (code) {
            case KIND_JOIN -> MemberEventKind.JOIN;
            case KIND_LEAVE -> MemberEventKind.LEAVE;
            case KIND_FAIL -> MemberEventKind.FAIL;
            default -> throw in.bad("unknown event kind " + code);
        };
        return new MemberEvent(kind, in.i32(), in.u64(), in.i32(), in.socketAddress(), in.u64());
    }

    private static int kindCode(MemberEventKind kind) {
        return switch (kind) {
            case JOIN -> KIND_JOIN;
            case LEAVE -> KIND_LEAVE;
            case FAIL -> KIND_FAIL;
        };
    }

    private static void writeAddress(InetSocketAddress address, ByteBuf out) {
        out.writeInt(Ipv4.toInt(address)).writeShort(address.getPort());
    }

    private static void writeText(String text, ByteBuf out) {
        int lengthAt = out.writerIndex();
        out.writeShort(0);
        int bytes = ByteBufUtil.writeUtf8(out, text);
        out.setShort(lengthAt, bytes);
    }
}
