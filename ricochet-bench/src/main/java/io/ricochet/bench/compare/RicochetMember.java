package io.ricochet.bench.compare;

import io.ricochet.api.DeliveryListener;
import io.ricochet.api.MessageId;
import io.ricochet.api.NodeStats;
import io.ricochet.daemon.Daemon;
import io.ricochet.daemon.DaemonSettings;
import io.ricochet.engine.PacketId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Ricochet member: one daemon (its own loopback address 127.0.0.(10 + id), multicast on {@code lo}) with the
 * application in the daemon's JVM, on the in-process {@link io.ricochet.api.LocalNode} interface. Loss is the
 * daemon's own injector ({@code inject-loss uniform:L}, data packets only); the daemon tells the member which packets
 * it dropped ({@link Daemon#observeInjectedDrops}), on the engine thread before any later delivery. Sends wait for
 * the daemon (the API's backpressure), with at most {@link #WINDOW} in flight ({@link SendWindow}: a full window
 * wakes the sender when half of it is free). Datagrams are not authenticated
 * ({@code insecure}), as JGroups' stock stack does not authenticate either.
 */
final class RicochetMember implements GroupMember {
    /** Sends handed to the daemon and not yet taken, at most (below the daemon's send queue of 4096). */
    static final int WINDOW = 1024;
    private static final long JOIN_TIMEOUT_SECONDS = 20;

    private final MemberPlan plan;
    private final DeliveryStats stats;
    private final DropLog drops = new DropLog(1 << 16);
    private final SendWindow window = new SendWindow(WINDOW);
    private final AtomicLong failedSends = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final DeliveryListener listener;
    private Daemon daemon;

    RicochetMember(MemberPlan plan) {
        this.plan = plan;
        this.stats = new DeliveryStats(plan.id());
        this.listener = new DeliveryListener() {
            /** The datagram whose first copy was dropped and whose messages are being delivered now, or null. */
            private DropLog.Key recovering;

            @Override
            public void delivered(int origin, int group, long seqno, byte[] payload) {
                delivered(origin, group, seqno, payload, 0, payload.length);
            }

            /** Reads the stamp in place, as the JGroups member reads its message's array: no copy per delivery. */
            @Override
            public void delivered(int origin, int group, long seqno, byte[] bytes, int offset, int length) {
                long nowNs = System.nanoTime();
                // The injector drops datagrams; a delivery names a message (datagram seqno * 4096 + index), and the
                // messages of one datagram are delivered one after the other: each of them is a recovery.
                DropLog.Key datagram = key(origin, group, MessageId.datagram(seqno));
                boolean dropped = datagram.equals(recovering) || drops.delivered(datagram);
                recovering = dropped ? datagram : null;
                stats.delivered(Payload.decode(bytes, offset, length), dropped, nowNs);
            }

            @Override
            public void lost(int origin, int group, long seqno) {
                lost.incrementAndGet();
            }

            @Override
            public boolean acceptsLocal(boolean own) {
                return false;
            }
        };
    }

    private static DropLog.Key key(int origin, int group, long seqno) {
        return new DropLog.Key(((long) origin << 32) | (group & 0xFFFF_FFFFL), seqno);
    }

    /** The daemon's settings, as its config file would give them. */
    static Map<String, String> settings(MemberPlan plan) {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("node-id", Integer.toString(plan.id()));
        flags.put("insecure", "on");
        flags.put("interface", "lo");
        flags.put("address", plan.ricochetAddress());
        flags.put("unicast-port", Integer.toString(plan.ricochetUnicastPort()));
        flags.put("heartbeat-port", Integer.toString(plan.ricochetHeartbeatPort()));
        flags.put("api-bind", "127.0.0.1");
        flags.put("api-port", "0");
        flags.put("gms", "127.0.0.1:" + plan.gmsPort());
        // The daemon carries messages of its payload less the one kind byte of its datagram format.
        flags.put("payload", Integer.toString(Math.max(1024, plan.payloadBytes() + 1)));
        flags.put("inject-loss", plan.loss() == 0 ? "none" : "uniform:" + plan.loss());
        flags.put("seed", Long.toString(plan.seed() * 1_000_003L + plan.id()));
        flags.put("stats-interval", "0");
        flags.put("multicast-ttl", Integer.toString(plan.ttl()));
        flags.putAll(plan.ricochetSettings());
        return flags;
    }

    @Override
    public void start() throws Exception {
        daemon = Daemon.start(DaemonSettings.resolve(null, null, settings(plan)));
        daemon.observeInjectedDrops((PacketId id) -> drops.dropped(key(id.origin(), id.group(), id.seqno())));
        for (int group : plan.groups()) {
            daemon.join(group, listener).get(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Override
    public boolean ready() throws Exception {
        NodeStats s = daemon.stats().get(10, TimeUnit.SECONDS);
        // The stats list the other members of each group.
        return plan.groups().stream()
                .allMatch(g -> s.members().getOrDefault(g, List.of()).size() >= plan.members() - 1);
    }

    @Override
    public void send(int group, byte[] payload) throws InterruptedException {
        window.acquire();
        daemon.send(group, payload, listener, true).whenComplete((seqno, error) -> {
            if (error != null) {
                failedSends.incrementAndGet();
            }
            window.release();
        });
    }

    @Override
    public long flush() throws InterruptedException {
        window.awaitEmpty();
        return failedSends.get();
    }

    /** The daemon's and its engine's non-zero counters, and the packets it gave up on (lost). */
    @Override
    public Map<String, Long> counters() throws Exception {
        Map<String, Long> counts = new TreeMap<>(daemon.stats().get(10, TimeUnit.SECONDS).counters());
        counts.put("lost", lost.get());
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
        if (daemon != null) {
            daemon.close();
            daemon = null;
        }
    }
}
