package io.ricochet.daemon;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.api.DeliveryListener;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.loss.LossModel;
import io.ricochet.loss.LossScope;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's driver of the protocol engine, and its {@link Outbox}. Everything here runs on the one event-loop
 * thread that owns the engine: datagrams are drained from the sockets into the {@link ReceiveBuffer} (loss
 * injected first, if configured), processed in one batch per read burst with one clock reading, and the sends
 * the engine makes are flushed once per batch. Exactly one timer is scheduled, at the engine's next deadline.
 */
@ChannelHandler.Sharable
final class EngineDriver extends SimpleChannelInboundHandler<DatagramPacket> implements Outbox {
    private static final Logger LOG = LoggerFactory.getLogger(EngineDriver.class);

    private final int self;
    private final EventLoop loop;
    private final ReceiveBuffer rx;
    private final LossModel injector;
    private final LossScope lossScope;
    private final DaemonStats stats = new DaemonStats();
    private final Map<Integer, InetSocketAddress> addresses = new HashMap<>();
    private final Map<Integer, InetSocketAddress> multicastOf = new HashMap<>();
    private final Map<Integer, List<DeliveryListener>> listeners = new HashMap<>();
    private final byte[] scratch = new byte[HeaderFlyweight.MAX_FRAME_LENGTH + 1];
    private final DataFlyweight data = new DataFlyweight();
    private final HeartbeatAnswer heartbeats;
    private final GroupMembership membership;
    private ProtocolEngine engine;
    private DaemonTransport transport;
    private ScheduledFuture<?> wake;
    private long wakeNs = Long.MAX_VALUE;

    EngineDriver(int self, EventLoop loop, ReceiveBuffer rx, LossModel injector, LossScope lossScope) {
        this.self = self;
        this.loop = loop;
        this.rx = rx;
        this.injector = injector;
        this.lossScope = lossScope;
        this.heartbeats = new HeartbeatAnswer(self);
        this.membership = new GroupMembership(self);
    }

    void attach(ProtocolEngine engine, DaemonTransport transport) {
        this.engine = engine;
        this.transport = transport;
    }

    ProtocolEngine engine() {
        return engine;
    }

    DaemonStats stats() {
        return stats;
    }

    // ------------------------------------------------------------------ receive path

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        ByteBuf content = packet.content();
        int length = content.readableBytes();
        if (length > HeaderFlyweight.MAX_FRAME_LENGTH || length < HeaderFlyweight.HEADER_LENGTH) {
            engine.counters().increment(EngineCounter.INVALID_PACKETS);
            return;
        }
        content.getBytes(content.readerIndex(), scratch, 0, length);
        int type = scratch[HeaderFlyweight.TYPE_OFFSET];
        if (heartbeats.answer(scratch, length, packet.sender(), transport)) {
            stats.heartbeatsAnswered++;
            transport.flush();
            return;
        }
        if (injectable(type, Bytes.getInt(scratch, HeaderFlyweight.SOURCE_OFFSET), self, lossScope)
                && injector.shouldDrop()) {
            if (type == FrameType.DATA && length >= DataFlyweight.DATA_HEADER_LENGTH) {
                data.wrap(scratch, 0);
                stats.injectedDrop(new PacketId(data.origin(), data.group(), data.seqno()), System.nanoTime());
            }
            return;
        }
        rx.offer(type == FrameType.DATA, scratch, 0, length);
    }

    /**
     * Whether injected loss applies to a frame of {@code type} sent by {@code source}: data (or, with scope all,
     * every type) from another node. This node's own multicasts come back to it on the loopback and the engine
     * discards them; dropping them would count losses that are none.
     */
    static boolean injectable(int type, int source, int self, LossScope scope) {
        return source != self && (type == FrameType.DATA || scope == LossScope.ALL);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        process();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Peer input never escapes as an exception; a socket error is logged once per occurrence.
        LOG.warn("socket error on {}: {}", ctx.channel().localAddress(), cause.toString());
    }

    /** Feeds every buffered datagram to the engine with one clock reading, then flushes and re-arms the timer. */
    void process() {
        long nowNs = System.nanoTime();
        rx.drain((frame, length) -> engine.onPacket(frame, 0, length, nowNs));
        afterEngineCall();
    }

    /** Call after any engine call made on the loop thread: flush sends, re-arm the single timer. */
    void afterEngineCall() {
        transport.flush();
        long deadline = engine.nextDeadlineNs();
        if (deadline != Long.MAX_VALUE && (wake == null || wake.isDone() || deadline < wakeNs)) {
            scheduleWake(deadline);
        }
    }

    private void scheduleWake(long deadlineNs) {
        if (wake != null) {
            wake.cancel(false);
        }
        wakeNs = deadlineNs;
        long delay = Math.max(0, deadlineNs - System.nanoTime());
        wake = loop.schedule(this::onWake, delay, TimeUnit.NANOSECONDS);
    }

    private void onWake() {
        wakeNs = Long.MAX_VALUE;
        engine.onTimer(System.nanoTime());
        afterEngineCall();
    }

    // ------------------------------------------------------------------ membership (from the GMS, on the loop)

    /**
     * A full view of {@code group} (snapshot on join or reconnect): reconcile the engine's view with it. The
     * members it lists are given to the engine before this node's own JOIN: they were there before us, so their
     * streams start at the first packet we see instead of at 0 (no NAKs for history we never had).
     */
    void applyView(int group, InetSocketAddress multicast, Map<Integer, InetSocketAddress> members,
                   Map<Integer, Long> incarnations, long nowNs) {
        LOG.info("group {}: view {} at {}", group, members.keySet(), multicast);
        multicastOf.put(group, multicast);
        addresses.putAll(members);
        for (Map.Entry<Integer, InetSocketAddress> m : members.entrySet()) {
            if (m.getKey() != self) {
                toEngine(new MembershipEvent(MembershipEvent.Kind.JOIN, group, m.getKey(),
                        incarnations.getOrDefault(m.getKey(), 0L)), nowNs);
            }
        }
        for (int listed : membership.others(group)) {
            if (!members.containsKey(listed)) {
                toEngine(MembershipEvent.leave(group, listed), nowNs);
            }
        }
        boolean inView = members.containsKey(self);
        boolean member = membership.isMember(group);
        if (inView && !member) {
            transport.joinGroup(group, multicast);
            toEngine(MembershipEvent.join(group, self), nowNs);
        } else if (!inView && member) {
            toEngine(MembershipEvent.leave(group, self), nowNs);
            transport.leaveGroup(group);
        }
        afterEngineCall();
    }

    /** Hands a membership change to the engine and keeps the daemon's own record in step. */
    private void toEngine(MembershipEvent event, long nowNs) {
        if (event.kind() == MembershipEvent.Kind.JOIN) {
            membership.join(event.group(), event.node());
        } else {
            membership.leave(event.group(), event.node());
        }
        engine.onMembership(event, nowNs);
    }

    /** One membership change pushed by the GMS. */
    void applyEvent(MembershipEvent event, InetSocketAddress unicast, long nowNs) {
        LOG.info("group {}: node {} {}", event.group(), event.node(), event.kind());
        if (unicast != null && event.kind() == MembershipEvent.Kind.JOIN) {
            addresses.put(event.node(), unicast);
        }
        if (event.node() == self) {
            InetSocketAddress multicast = multicastOf.get(event.group());
            if (event.kind() == MembershipEvent.Kind.JOIN && multicast == null) {
                return; // The group's view, with its multicast address, follows and applies the join.
            }
            if (event.kind() == MembershipEvent.Kind.JOIN) {
                transport.joinGroup(event.group(), multicast);
            } else {
                transport.leaveGroup(event.group());
            }
        }
        toEngine(event, nowNs);
        afterEngineCall();
    }

    boolean isMember(int group) {
        return membership.isMember(group);
    }

    // ------------------------------------------------------------------ local subscribers

    void addListener(int group, DeliveryListener listener) {
        listeners.computeIfAbsent(group, g -> new ArrayList<>()).add(listener);
    }

    /** Removes the listener; returns true if it was the group's last one. */
    boolean removeListener(int group, DeliveryListener listener) {
        List<DeliveryListener> list = listeners.get(group);
        if (list == null) {
            return false;
        }
        list.remove(listener);
        if (list.isEmpty()) {
            listeners.remove(group);
            return true;
        }
        return false;
    }

    java.util.Set<Integer> subscribedGroups() {
        return listeners.keySet();
    }

    // ------------------------------------------------------------------ Outbox

    @Override
    public void multicast(int group, byte[] frame, int offset, int length) {
        InetSocketAddress to = multicastOf.get(group);
        if (to == null) {
            stats.unknownDestinations++;
            return;
        }
        transport.send(to, frame, offset, length);
    }

    @Override
    public void unicast(int node, byte[] frame, int offset, int length) {
        InetSocketAddress to = addresses.get(node);
        if (to == null) {
            stats.unknownDestinations++;
            return;
        }
        transport.send(to, frame, offset, length);
    }

    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
        if (how == Delivery.LEC || how == Delivery.NAK) {
            stats.recovered(new PacketId(origin, group, seqno), how, System.nanoTime());
        }
        List<DeliveryListener> list = listeners.get(group);
        if (list == null) {
            return;
        }
        for (DeliveryListener listener : list) {
            listener.delivered(origin, group, seqno, Arrays.copyOfRange(payload, offset, offset + length));
        }
    }

    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
        List<DeliveryListener> list = listeners.get(group);
        if (list != null) {
            for (DeliveryListener listener : list) {
                listener.lost(origin, group, seqno);
            }
        }
    }

    @Override
    public void wakeAt(long deadlineNs) {
        // Re-armed after every engine call by afterEngineCall(), from nextDeadlineNs().
    }

    @Override
    public void lossDiscovered(int origin, int group, long seqno, long nowNs) {
        stats.discovered(new PacketId(origin, group, seqno), nowNs);
    }

    /** Everything {@code ricochet stats} shows about this node; call on the loop thread. */
    Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Long> counters = new LinkedHashMap<>();
        engine.counters().snapshot().forEach((k, v) -> counters.put(k.name(), v));
        counters.put("RX_BUFFER_RANDOM_DROPS", rx.randomDrops());
        m.put("counters", counters);
        long received = counters.get("DATA_RECEIVED");
        m.put("xorsPerDataPacket", received == 0 ? 0.0
                : Math.round(1000.0 * counters.get("BIN_XORS") / received) / 1000.0);
        m.put("daemon", stats.snapshot());
        Map<String, Object> buffers = new LinkedHashMap<>(engine.bufferUsage());
        buffers.put("rxBufferPackets", rx.size());
        buffers.put("rxBufferBytes", rx.memoryBytes());
        m.put("buffers", buffers);
        m.put("groups", membership.myGroups());
        Map<String, Object> members = new LinkedHashMap<>();
        for (int group : membership.myGroups()) {
            members.put(Integer.toString(group), membership.others(group));
        }
        m.put("members", members);
        return m;
    }
}
