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
 * A Ricochet member: one daemon (its own address: 127.0.0.(10 + id) with multicast on {@code lo}, or on a real link
 * its namespace's veth) with the application in the daemon's JVM, on the in-process
 * {@link io.ricochet.api.LocalNode} interface. Loss on loopback is the daemon's own injector ({@code inject-loss
 * uniform:L}, data packets only); the daemon tells the member which packets it dropped
 * ({@link Daemon#observeInjectedDrops}), on the engine thread before any later delivery. Sends wait for
 * the daemon (the API's backpressure), with at most {@link #WINDOW} in flight ({@link SendWindow}: a full window
 * wakes the sender when half of it is free). The daemon runs as the package configures it ({@link #settings}):
 * datagrams authenticated with the run's key file, TLS to the GMS, every other setting at its default unless the
 * trial names a variant.
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

    /**
     * Settings a trial gives every daemon whatever their value, as a packaged node's config file names its own host:
     * addressing (node id, interface, address, ports, GMS) and the credentials. They are not variants; any other
     * setting that differs from its default is, and {@link #variant} names it.
     */
    static final java.util.Set<String> ADDRESSING = java.util.Set.of("node-id", "interface", "address",
            "unicast-port", "heartbeat-port", "api-bind", "api-port", "gms", "key-file", "tls-cert", "tls-key",
            "tls-ca");

    /**
     * The daemon's settings, as its config file would give them: every one at its default but addressing and the
     * credentials (the run's key file, the member's certificate), plus {@code --ricochet-set}'s; and on loopback with
     * loss, the daemon's own injector (then a variant, named as such). Nothing is raised to fit the trial: a message
     * size the default payload cannot carry is refused by the plan.
     */
    static Map<String, String> settings(MemberPlan plan) {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("node-id", Integer.toString(plan.id()));
        flags.put("interface", plan.ricochetInterface());
        flags.put("address", plan.ricochetAddress());
        flags.put("unicast-port", Integer.toString(plan.ricochetUnicastPort()));
        flags.put("heartbeat-port", Integer.toString(plan.ricochetHeartbeatPort()));
        flags.put("api-bind", "127.0.0.1");
        flags.put("api-port", "0");
        flags.put("gms", plan.gmsHost() + ":" + plan.gmsPort());
        if (!insecure(plan.ricochetSettings()) && plan.credentials() != null) {
            String name = io.ricochet.control.tls.PeerIdentity.nodeName(plan.id());
            flags.put("key-file", Credentials.keyFile(plan.credentials()).toString());
            flags.put("tls-cert", Credentials.cert(plan.credentials(), name).toString());
            flags.put("tls-key", Credentials.key(plan.credentials(), name).toString());
            flags.put("tls-ca", Credentials.ca(plan.credentials()).toString());
        }
        if (plan.loss() > 0) {
            flags.put("inject-loss", "uniform:" + plan.loss());
            flags.put("seed", Long.toString(plan.seed() * 1_000_003L + plan.id())); // each member draws its own drops
        }
        if (plan.ttl() != 1) {
            flags.put("multicast-ttl", Integer.toString(plan.ttl()));
        }
        flags.putAll(plan.ricochetSettings());
        return flags;
    }

    /** Whether {@code settings} ask for the insecure variant. */
    static boolean insecure(Map<String, String> settings) {
        return "on".equalsIgnoreCase(settings.getOrDefault("insecure", "off").strip());
    }

    /** The daemon's payload under {@code settings} (its default unless set). */
    static int payload(Map<String, String> settings) {
        String value = settings.getOrDefault("payload", io.ricochet.lecnak.RicochetConfig.PAYLOAD.defaultText());
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ricochet setting payload = " + value + ": not a number of bytes");
        }
    }

    /** The settings of {@code plan}'s daemon that are not addressing and differ from their defaults, in order. */
    static Map<String, String> nonDefaults(MemberPlan plan) {
        Map<String, String> changed = new LinkedHashMap<>();
        settings(plan).forEach((key, value) -> {
            io.ricochet.setting.Setting known = io.ricochet.daemon.DaemonSettings.KEYS.get(key);
            if (!ADDRESSING.contains(key) && (known == null || !value.equals(known.defaultText()))) {
                changed.put(key, key.equals("seed") ? "per member" : value);
            }
        });
        return changed;
    }

    /**
     * The name of the plan's configuration in the tables: "ricochet (defaults, authenticated)" when every setting is
     * at its default, else "ricochet [KEY=VALUE, ...]" listing every one that is not (e.g. "ricochet [insecure=on]").
     */
    static String variant(MemberPlan plan) {
        Map<String, String> changed = nonDefaults(plan);
        if (changed.isEmpty()) {
            return "ricochet (defaults, authenticated)";
        }
        List<String> items = new java.util.ArrayList<>();
        changed.forEach((key, value) -> items.add(key + "=" + value));
        return "ricochet [" + String.join(", ", items) + "]" + (insecure(plan.ricochetSettings()) ? ""
                : " (authenticated)");
    }

    @Override
    public void start() throws Exception {
        if (!insecure(plan.ricochetSettings()) && plan.credentials() == null) {
            throw new IllegalStateException("an authenticated Ricochet member needs the run's credentials (key file "
                    + "and certificates); only the insecure variant (--ricochet-set insecure=on) runs without");
        }
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
