package io.ricochet.bench.rx;

import io.ricochet.bench.load.JsonFiles;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench rx-paths}: datagrams/s received and CPU per datagram of the two receive paths of issue 12, point 1,
 * at fixed offered rates, one after the other in this process, on loopback multicast with TTL 0.
 */
@Command(name = "rx-paths",
        sortOptions = false,
        description = {
            "Measures two ways of receiving multicast datagrams, at the same offered rates, one after the other in "
                + "this process: 'netty' (the daemon's: Netty's epoll channel on its event loop, recvmmsg, 16 "
                + "datagrams per call) and 'thread' (a dedicated thread blocked in DatagramChannel.receive, one "
                + "datagram per call). Each copies every datagram into a byte array, as the daemon's receive buffer "
                + "does, and does nothing else: the engine's share is not in it. A sender thread in this process "
                + "multicasts on loopback (lo, TTL 0). Run it inside a network namespace with multicast on lo "
                + "(scripts/experiments/rx-paths does).",
            "",
        })
public final class RxPathsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--rates", paramLabel = "R", split = ",", defaultValue = "50000,100000,150000,200000",
            description = "Offered datagrams per second (default: ${DEFAULT-VALUE}).")
    private List<Integer> rates;

    @Option(names = "--paths", paramLabel = "P", split = ",", defaultValue = "netty,thread",
            description = "Receive paths, in this order, alternating each round (default: ${DEFAULT-VALUE}).")
    private List<String> paths;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "3",
            description = "Measured seconds per path and rate (default: ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "1",
            description = "Seconds sent before each measurement (default: ${DEFAULT-VALUE}).")
    private double warmup;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "1024",
            description = "Bytes per datagram (default: ${DEFAULT-VALUE}).")
    private int size;

    @Option(names = "--rcvbuf", paramLabel = "BYTES", defaultValue = "4194304",
            description = "SO_RCVBUF asked for the receiving socket (default: ${DEFAULT-VALUE}).")
    private int rcvbuf;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "41077",
            description = "UDP port of the multicast group 239.255.77.1 (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the results as JSON here.")
    private Path out;

    @Override
    public Integer call() throws Exception {
        if (rates.stream().anyMatch(r -> r < 1 || r > 2_000_000)) {
            throw new ParameterException(spec.commandLine(), "--rates " + rates + ": each must be in 1..2000000");
        }
        if (!paths.stream().allMatch(p -> p.equals("netty") || p.equals("thread"))) {
            throw new ParameterException(spec.commandLine(), "--paths " + paths + ": each must be netty or thread");
        }
        if (size < 1 || size > 1472 || seconds <= 0 || warmup < 0 || port < 1024 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--size must be in 1..1472, --seconds positive, "
                    + "--warmup 0 or more, --port in 1024..65535");
        }
        NetworkInterface lo = NetworkInterface.getByName("lo");
        if (lo == null || !lo.supportsMulticast()) {
            System.err.println("rx-paths: loopback 'lo' must exist with multicast on: run it in a network namespace "
                    + "(scripts/experiments/rx-paths)");
            return 1;
        }
        InetSocketAddress group = new InetSocketAddress(InetAddress.getByName("239.255.77.1"), port);
        List<Map<String, Object>> results = new ArrayList<>();
        System.out.printf(Locale.ROOT, "%-7s %10s %10s %8s %14s %14s%n", "path", "offered/s", "received/s", "recv %",
                "rx thread us", "process us");
        for (int round = 0; round < rates.size(); round++) {
            int rate = rates.get(round);
            List<String> order = new ArrayList<>(paths);
            if (round % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            for (String path : order) {
                Map<String, Object> r = measure(path, rate, group, lo);
                results.add(r);
                System.out.printf(Locale.ROOT, "%-7s %10d %10.0f %8.2f %14.3f %14.3f%n", path, rate,
                        (double) r.get("receivedPerSecond"), (double) r.get("receivedPercent"),
                        (double) r.get("rxThreadMicrosPerDatagram"), (double) r.get("processMicrosPerDatagram"));
            }
        }
        if (out != null) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("machine", io.ricochet.bench.experiment.RunInfo.thisMachine());
            doc.put("size", size);
            doc.put("seconds", seconds);
            doc.put("rcvbuf", rcvbuf);
            doc.put("results", results);
            JsonFiles.write(out, doc);
        }
        return 0;
    }

    private Map<String, Object> measure(String path, int rate, InetSocketAddress group, NetworkInterface lo)
            throws Exception {
        try (RxPath rx = path.equals("netty") ? new NettyRx(group, lo, rcvbuf) : new ThreadRx(group, lo, rcvbuf);
             DatagramChannel tx = DatagramChannel.open(StandardProtocolFamily.INET)) {
            tx.setOption(StandardSocketOptions.IP_MULTICAST_IF, lo);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 0);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            ByteBuffer datagram = ByteBuffer.allocateDirect(size);
            long warmupNs = (long) (warmup * 1e9);
            long windowNs = (long) (seconds * 1e9);
            long start = System.nanoTime();
            send(tx, datagram, group, rate, start, start + warmupNs);
            long rx0 = rx.received();
            long cpu0 = rx.threadCpuNs();
            long proc0 = io.ricochet.bench.load.CpuClock.processNanos();
            long t0 = System.nanoTime();
            long sent = send(tx, datagram, group, rate, t0, t0 + windowNs);
            long t1 = System.nanoTime();
            long rx1 = rx.received();
            long cpu1 = rx.threadCpuNs();
            long proc1 = io.ricochet.bench.load.CpuClock.processNanos();
            long got = rx1 - rx0;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("path", path);
            r.put("offeredPerSecond", rate);
            r.put("sentInWindow", sent);
            r.put("receivedInWindow", got);
            r.put("receivedPerSecond", got / ((t1 - t0) / 1e9));
            r.put("receivedPercent", sent == 0 ? 0.0 : 100.0 * got / sent);
            r.put("rxThreadMicrosPerDatagram", got == 0 ? 0.0 : (cpu1 - cpu0) / 1e3 / got);
            r.put("processMicrosPerDatagram", got == 0 ? 0.0 : (proc1 - proc0) / 1e3 / got);
            return r;
        }
    }

    /** Sends at {@code rate} from {@code fromNs} until {@code untilNs}, in 1 ms batches; returns datagrams sent. */
    private static long send(DatagramChannel tx, ByteBuffer datagram, InetSocketAddress group, int rate, long fromNs,
                             long untilNs) throws Exception {
        long sent = 0;
        while (true) {
            long now = System.nanoTime();
            if (now >= untilNs) {
                return sent;
            }
            long due = (long) ((now - fromNs) / 1e9 * rate);
            while (sent < due) {
                datagram.clear();
                tx.send(datagram, group);
                sent++;
            }
            LockSupport.parkNanos(200_000);
        }
    }
}
