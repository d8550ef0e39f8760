package io.ricochet.bench.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.protocols.UDP;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.stack.ProtocolStack;

/**
 * A JGroups member: one JChannel per group (not fork channels, which would share one NAKACK2 sequence, so one loss
 * recovery stream, among all groups), each on its own {@link JGroupsStack} of the plan's configuration, with a
 * {@link RecordingDiscard} right above the transport on loopback (on a real link the network drops packets and no
 * injector runs). Its own messages are not delivered back to it.
 */
final class JGroupsMember implements GroupMember {
    /** Channels connected at once while starting. */
    private static final int CONNECT_THREADS = 8;

    private final MemberPlan plan;
    private final DeliveryStats stats;
    private final DropLog drops = new DropLog(1 << 16);
    private final Map<Integer, JChannel> channels = new LinkedHashMap<>();

    JGroupsMember(MemberPlan plan) {
        this.plan = plan;
        this.stats = new DeliveryStats(plan.id());
    }

    @Override
    public void start() throws Exception {
        ExecutorService connect = Executors.newFixedThreadPool(Math.min(CONNECT_THREADS, plan.groups().size()));
        try {
            List<Future<JChannel>> pending = new ArrayList<>();
            for (int group : plan.groups()) {
                pending.add(connect.submit(() -> open(group)));
            }
            for (int i = 0; i < pending.size(); i++) {
                channels.put(plan.groups().get(i), pending.get(i).get());
            }
        } finally {
            connect.shutdownNow();
        }
    }

    private JChannel open(int group) throws Exception {
        JChannel channel = new JChannel(JGroupsStack.of(plan, group));
        // Each group's drops come from a generator of their own, seeded by the member and the group.
        long seed = plan.seed() * 1_000_003L + plan.id() * 65_537L + group;
        if (plan.mtu() == 0) { // the harness's injector on loopback; on a real link loss is the network's (nftables)
            channel.getProtocolStack().insertProtocol(new RecordingDiscard(plan.loss(), seed, plan.id(), drops),
                    ProtocolStack.Position.ABOVE, UDP.class);
        }
        // Counted for counters(): JGroups keeps these statistics only when asked.
        channel.getProtocolStack().findProtocol(NAKACK2.class).enableStats(true);
        channel.getProtocolStack().findProtocol(UDP.class).enableStats(true);
        channel.setDiscardOwnMessages(true);
        channel.setName("m" + plan.id());
        channel.setReceiver(new Receiver() {
            @Override
            public void receive(Message msg) {
                long nowNs = System.nanoTime();
                Payload.Stamp stamp = msg.hasArray() ? Payload.decode(msg.getArray(), msg.getOffset(),
                        msg.getLength()) : null;
                boolean dropped = stamp != null && drops.delivered(new DropLog.Key(stamp.sender(), stamp.counter()));
                stats.delivered(stamp, dropped, nowNs);
            }
        });
        channel.connect("g" + group);
        return channel;
    }

    @Override
    public boolean ready() {
        return channels.size() == plan.groups().size()
                && channels.values().stream().allMatch(c -> c.getView() != null
                && c.getView().size() >= plan.members());
    }

    @Override
    public void send(int group, byte[] payload) throws Exception {
        channels.get(group).send(new BytesMessage(null, payload));
    }

    @Override
    public long flush() {
        return 0; // JChannel.send returns once the message was taken
    }

    /** NAKACK2's retransmission counts and the transport's, summed over the member's channels. */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> counts = new TreeMap<>();
        for (JChannel channel : channels.values()) {
            NAKACK2 nak = channel.getProtocolStack().findProtocol(NAKACK2.class);
            UDP udp = channel.getProtocolStack().findProtocol(UDP.class);
            counts.merge("nakack2.xmit_requests_sent", nak.getXmitRequestsSent(), Long::sum);
            counts.merge("nakack2.xmit_requests_received", nak.getXmitRequestsReceived(), Long::sum);
            counts.merge("nakack2.xmit_responses_sent", nak.getXmitResponsesSent(), Long::sum);
            counts.merge("nakack2.xmit_responses_received", nak.getXmitResponsesReceived(), Long::sum);
            counts.merge("udp.mcast_msgs_sent", udp.getMessageStats().getNumMcastsSent(), Long::sum);
            counts.merge("udp.mcast_msgs_received", udp.getMessageStats().getNumMcastsReceived(), Long::sum);
        }
        counts.values().removeIf(v -> v == 0);
        return counts;
    }

    @Override
    public DeliveryStats stats() {
        return stats;
    }

    @Override
    public DropLog drops() {
        return drops;
    }

    @Override
    public void close() {
        ExecutorService closing = Executors.newFixedThreadPool(Math.max(1, Math.min(CONNECT_THREADS,
                channels.size())));
        channels.values().forEach(c -> closing.execute(c::close));
        closing.shutdown();
        try {
            closing.awaitTermination(Trial.REPORT_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channels.clear();
    }
}
