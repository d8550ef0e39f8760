package io.ricochet.bench.gms;

import io.netty.channel.EventLoopGroup;
import io.ricochet.bench.experiment.RunInfo;
import io.ricochet.bench.load.HostReadings;
import io.ricochet.bench.load.JsonFiles;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.link.MembershipListener;
import io.ricochet.control.link.TcpChannels;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.support.Directories;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench gms}: commits per second of one partition with one and with three replica processes, and failover
 * times with three (SIGKILL of the leader), on loopback. See the command's description.
 */
@Command(name = "gms",
        sortOptions = false,
        description = {
            "Measures the replicated GMS with real replica processes (ricochet-gms, one partition) on 127.0.0.1, "
                + "their Raft state on disk under --out.",
            "Commit rate: for each replica count in --replicas, --clients connections to the leader each keep "
                + "--window JOIN/LEAVE requests outstanding for --seconds; a change counts once its MEMBER_EVENT "
                + "is back (committed by a majority, applied, pushed). Also the replicas' CPU per change.",
            "Failover (3 replicas or more): --daemons GMS clients (the daemons' GmsClient, following the leader) "
                + "are in a group each, and one more changes its membership every 5 ms; the leader is killed "
                + "with SIGKILL, --failovers times (restarted in between). Reported: kill to the first change "
                + "committed by the new leader, as its client hears it, and kill to every client served again.",
            "",
        })
public final class GmsBenchCommand implements Callable<Integer> {
    private static final long CLK_TCK = 100;

    @Spec
    private CommandSpec spec;

    @Option(names = "--replicas", paramLabel = "K", split = ",", defaultValue = "1,3",
            description = "Replica counts to measure the commit rate with (default: ${DEFAULT-VALUE}).")
    private List<Integer> replicaCounts;

    @Option(names = "--clients", paramLabel = "C", defaultValue = "8",
            description = "Connections making changes (default: ${DEFAULT-VALUE}).")
    private int clients;

    @Option(names = "--window", paramLabel = "W", defaultValue = "32",
            description = "Requests each connection keeps outstanding (default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "Measured seconds of each commit-rate run (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "10",
            description = "Seconds of load before each commit-rate window, for the replicas' JIT to settle "
                    + "(default: ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--daemons", paramLabel = "N", defaultValue = "16",
            description = "GMS clients in the failover runs (default: ${DEFAULT-VALUE}).")
    private int daemons;

    @Option(names = "--failovers", paramLabel = "F", defaultValue = "5",
            description = "Leader kills (default: ${DEFAULT-VALUE}; 0 skips the failover runs).")
    private int failovers;

    @Option(names = "--election-timeout-ms", paramLabel = "MS", defaultValue = "500",
            description = "The replicas' --election-timeout-ms (default: ${DEFAULT-VALUE}).")
    private int electionTimeoutMs;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "27100",
            description = "First TCP port used on 127.0.0.1 (the next 100 too) (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/bench-gms",
            description = "Where results.json, results.md, the replicas' logs and Raft state go (cleared first) "
                    + "(default: ${DEFAULT-VALUE}).")
    private Path out;

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || window < 1 || seconds < 1 || warmup < 0 || daemons < 1 || failovers < 0
                || replicaCounts.isEmpty() || replicaCounts.stream().anyMatch(k -> k < 1 || k > 9) || port < 1024
                || port > 65_000) {
            throw new ParameterException(spec.commandLine(), "--clients, --window, --seconds, --daemons must be at "
                    + "least 1, --warmup and --failovers at least 0, --replicas in 1..9, --port in 1024..65000");
        }
        Directories.deleteTree(out);
        Files.createDirectories(out);
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("machine", RunInfo.thisMachine());
        results.put("settings", Map.of("clients", clients, "window", window, "seconds", seconds,
                "warmup", warmup,
                "electionTimeoutMs", electionTimeoutMs, "daemons", daemons, "failovers", failovers));
        List<Map<String, Object>> rates = new ArrayList<>();
        for (int k : replicaCounts) {
            rates.add(commitRate(k));
        }
        results.put("commitRate", rates);
        if (failovers > 0) {
            results.put("failover", failover(3));
        }
        JsonFiles.write(out.resolve("results.json"), results);
        String md = markdown(results);
        Files.writeString(out.resolve("results.md"), md);
        spec.commandLine().getOut().print(md);
        return 0;
    }

    private Map<String, Object> commitRate(int replicas) throws Exception {
        try (ReplicaProcesses gms = new ReplicaProcesses(out.resolve("rate-" + replicas), port, replicas,
                electionTimeoutMs)) {
            gms.startAll();
            int leader = gms.awaitLeader(60_000);
            if (leader == 0) {
                throw new IOException("no leader within 60 s; see " + out.resolve("rate-" + replicas));
            }
            try (ChangeLoad load = new ChangeLoad(gms.address(leader), clients, window)) {
                Thread.sleep(warmup * 1000L);
                long c0 = load.committed();
                long cpu0 = cpuTicks(gms, replicas);
                long t0 = System.nanoTime();
                Thread.sleep(seconds * 1000L);
                long c1 = load.committed();
                long cpu1 = cpuTicks(gms, replicas);
                double wall = (System.nanoTime() - t0) / 1e9;
                double perSecond = (c1 - c0) / wall;
                double cpuUs = (cpu1 - cpu0) * (1e6 / CLK_TCK) / Math.max(1, c1 - c0);
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("replicas", replicas);
                r.put("changesPerSecond", Math.round(perSecond));
                r.put("replicaCpuUsPerChange", Math.round(cpuUs * 10) / 10.0);
                spec.commandLine().getErr().printf(Locale.ROOT, "%d replica(s): %.0f changes/s, %.1f µs of replica "
                        + "CPU per change%n", replicas, perSecond, cpuUs);
                return r;
            }
        }
    }

    private Map<String, Object> failover(int replicas) throws Exception {
        List<Double> electedMs = new ArrayList<>();
        List<Double> firstCommitMs = new ArrayList<>();
        List<Double> allServedMs = new ArrayList<>();
        EventLoopGroup group = TcpChannels.newGroup(2, "bench-gms-clients");
        try (ReplicaProcesses gms = new ReplicaProcesses(out.resolve("failover"), port, replicas,
                electionTimeoutMs)) {
            gms.startAll();
            if (gms.awaitLeader(60_000) == 0) {
                throw new IOException("no leader within 60 s; see " + out.resolve("failover"));
            }
            List<List<InetSocketAddress>> partitions = List.of(gms.addresses());
            AtomicInteger up = new AtomicInteger();
            AtomicLong lastUpNs = new AtomicLong();
            AtomicLong probeEventNs = new AtomicLong();
            List<GmsClient> clientList = new ArrayList<>();
            for (int n = 1; n <= daemons + 1; n++) {
                boolean prober = n == daemons + 1;
                GmsClient client = new GmsClient(n, new InetSocketAddress("127.0.0.1", 30_000 + n), 1, partitions,
                        new Listener(n, prober, up, lastUpNs, probeEventNs), group);
                client.join(prober ? 9_999 : 5_000 + n, 0);
                client.start();
                clientList.add(client);
            }
            GmsClient prober = clientList.get(daemons);
            awaitCount(up, daemons + 1, "every client served");
            for (int f = 0; f < failovers; f++) {
                int leader = gms.awaitLeader(60_000);
                Thread.sleep(1000);
                up.set(0);
                probeEventNs.set(0);
                Thread toggler = new Thread(() -> toggle(prober), "bench-gms-toggle");
                toggler.start();
                Thread.sleep(200);
                long killNs = System.nanoTime();
                long killMs = System.currentTimeMillis();
                gms.kill(leader);
                probeEventNs.set(0);
                lastUpNs.set(0);
                up.set(0);
                awaitCount(up, daemons + 1, "every client served again after killing replica " + leader);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (probeEventNs.get() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                toggler.interrupt();
                toggler.join();
                long elected = gms.electedAfter(killMs);
                electedMs.add(elected < 0 ? -1.0 : (double) (elected - killMs));   // -1: no leader line found
                firstCommitMs.add((probeEventNs.get() - killNs) / 1e6);
                allServedMs.add((lastUpNs.get() - killNs) / 1e6);
                spec.commandLine().getErr().printf(Locale.ROOT, "failover %d (killed replica %d): new leader "
                        + "after %.0f ms, first commit after %.0f ms, every client served after %.0f ms%n", f + 1,
                        leader, electedMs.get(f), firstCommitMs.get(f), allServedMs.get(f));
                gms.start(leader);
                if (!gms.awaitCaughtUp(leader, 60_000)) {
                    throw new IOException("replica " + leader + " did not rejoin within 60 s after its restart");
                }
            }
            clientList.forEach(GmsClient::close);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("replicas", replicas);
        r.put("killToLeaderMs", electedMs);
        r.put("killToFirstCommitMs", firstCommitMs);
        r.put("killToAllServedMs", allServedMs);
        return r;
    }

    /** Joins and leaves the probe group every 5 ms until interrupted. */
    private static void toggle(GmsClient prober) {
        try {
            for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                if (i % 2 == 0) {
                    prober.leave(9_999);
                } else {
                    prober.join(9_999, 0);
                }
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitCount(AtomicInteger count, int target, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count.get() < target) {
            if (System.nanoTime() > deadline) {
                throw new IOException("timed out waiting for " + what + " (" + count.get() + " of " + target + ")");
            }
            Thread.sleep(5);
        }
    }

    /** utime + stime of every live replica, in clock ticks. */
    private static long cpuTicks(ReplicaProcesses gms, int replicas) {
        long ticks = 0;
        for (int r = 1; r <= replicas; r++) {
            if (gms.isAlive(r)) {
                ticks += Math.max(0, HostReadings.cpuTicks(gms.pid(r)));
            }
        }
        return ticks;
    }

    @SuppressWarnings("unchecked")
    private static String markdown(Map<String, Object> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("Machine: ").append(results.get("machine")).append("\n\n");
        sb.append("| replicas | changes committed / s | replica CPU µs / change |\n|---:|---:|---:|\n");
        for (Map<String, Object> r : (List<Map<String, Object>>) results.get("commitRate")) {
            sb.append("| ").append(r.get("replicas")).append(" | ").append(r.get("changesPerSecond")).append(" | ")
                    .append(r.get("replicaCpuUsPerChange")).append(" |\n");
        }
        Map<String, Object> f = (Map<String, Object>) results.get("failover");
        if (f != null) {
            sb.append("\n| failover | kill → new leader (ms) | kill → first commit (ms) | kill → every client "
                    + "served (ms) |\n").append("|---:|---:|---:|---:|\n");
            List<Double> elected = (List<Double>) f.get("killToLeaderMs");
            List<Double> first = (List<Double>) f.get("killToFirstCommitMs");
            List<Double> all = (List<Double>) f.get("killToAllServedMs");
            for (int i = 0; i < first.size(); i++) {
                sb.append(String.format(Locale.ROOT, "| %d | %.0f | %.0f | %.0f |%n", i + 1, elected.get(i),
                        first.get(i), all.get(i)));
            }
        }
        return sb.toString();
    }

    /** Counts sessions coming up, and the prober's own events. */
    private static final class Listener implements MembershipListener {
        private final int node;
        private final boolean prober;
        private final AtomicInteger up;
        private final AtomicLong lastUpNs;
        private final AtomicLong probeEventNs;

        Listener(int node, boolean prober, AtomicInteger up, AtomicLong lastUpNs, AtomicLong probeEventNs) {
            this.node = node;
            this.prober = prober;
            this.up = up;
            this.lastUpNs = lastUpNs;
            this.probeEventNs = probeEventNs;
        }

        @Override
        public void onGroupView(GroupView view) {
        }

        @Override
        public void onMemberEvent(MemberEvent event) {
            if (prober && event.nodeId() == node) {
                probeEventNs.compareAndSet(0, System.nanoTime());
            }
        }

        @Override
        public void onPartition(int partition, boolean isUp) {
            if (isUp) {
                lastUpNs.set(System.nanoTime());
                up.incrementAndGet();
            }
        }

        @Override
        public void onError(int partition, int code, String message) {
        }
    }
}
