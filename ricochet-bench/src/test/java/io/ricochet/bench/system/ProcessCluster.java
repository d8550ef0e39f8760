package io.ricochet.bench.system;

import io.ricochet.auth.ClusterKeys;
import io.ricochet.support.Directories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A cluster of real processes on loopback for system tests: GMS partitions, a rack failure detector and daemons,
 * each a JVM started from this test's classpath (the test JVM already runs in a private network namespace, and its
 * children inherit it). Logs go to {@code target/system-logs/<test>/}. {@link #close()} kills what is left.
 *
 * <p>Every run is authenticated as a real cluster is: a cluster key of its own for the datagrams, and for the
 * control links a CA of its own with a certificate per process, made by {@code scripts/certs} (the same script
 * {@code scripts/cluster} uses) into {@code target/system-logs/<test>/certs/}.
 */
final class ProcessCluster implements AutoCloseable {
    static final int GMS_BASE_PORT = 17100;
    /** Replica r of a replicated GMS serves partition i on GMS_BASE_PORT + 10 (r - 1) + i. */
    static final int REPLICA_PORT_STEP = 10;
    static final int RAFT_BASE_PORT = 17190;
    static final int FD_PORT = 17200;
    static final int UNICAST_BASE_PORT = 17300;
    static final int API_BASE_PORT = 17400;
    static final int HEARTBEAT_BASE_PORT = 17500;

    private final Path logs;
    private final Path keyFile;
    private final Path certs;
    private final int partitions;
    private final int replicas;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    /** Flags every GMS process of this cluster gets besides its own (e.g. --regions). */
    private final List<String> gmsFlags = new ArrayList<>();

    /** A GMS of {@code partitions} partitions, each its own process, a Raft replica alone ({@code gms-<i>}). */
    ProcessCluster(String name, int partitions) throws IOException {
        this(name, partitions, 0);
    }

    /**
     * A GMS of {@code partitions} partitions; with {@code replicas} > 0, served by that many replica processes
     * ({@code gms-r<id>}, each hosting every partition, each partition a Raft group of them all), else by one lone
     * replica process per partition ({@code gms-<i>}). Raft state lives under the run's log folder, cleared here.
     */
    ProcessCluster(String name, int partitions, int replicas) throws IOException {
        this.logs = Path.of("target", "system-logs", name);
        Files.createDirectories(logs);
        // Every run authenticates with a key of its own, as a real cluster would.
        this.keyFile = logs.resolve("cluster.key");
        Files.deleteIfExists(keyFile);
        ClusterKeys.generate(new SecureRandom(), 1).write(keyFile);
        this.certs = logs.resolve("certs");
        Directories.deleteTree(certs);
        this.partitions = partitions;
        this.replicas = replicas;
        List<String> names = new ArrayList<>(List.of("detector:rack-1"));
        for (String gms : gmsNames()) {
            names.add("gms:" + gms);
            Directories.deleteTree(logs.resolve(gms + "-data"));
        }
        makeCertificates(certs, names.toArray(String[]::new));
    }

    /** The folder of this run's CA ({@code ca.pem}) and certificates ({@code NAME.pem}, {@code NAME.key}). */
    Path certs() {
        return certs;
    }

    /**
     * Runs {@code scripts/certs dir specs...}: makes (or reuses) the CA in {@code dir} and a certificate per
     * {@code ROLE:NAME} spec, signed by it.
     */
    static void makeCertificates(Path dir, String... specs) throws IOException {
        List<String> command = new ArrayList<>(List.of(script("certs").toString(), dir.toString()));
        command.addAll(List.of(specs));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("scripts/certs " + String.join(" ", specs) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted making certificates", e);
        }
    }

    /** The files of {@code name}'s certificate in this run's CA folder, as the three --tls-* options. */
    private List<String> tlsOptions(String name) {
        return List.of("--tls-cert", certs.resolve(name + ".pem").toString(), "--tls-key",
                certs.resolve(name + ".key").toString(), "--tls-ca", certs.resolve("ca.pem").toString());
    }

    private static Path script(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts").resolve(name);
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new IllegalStateException("scripts/" + name + " not found above " + Path.of("").toAbsolutePath());
    }

    /** The daemons' and detectors' --gms: partitions in order (','), each as its replicas ('/'). */
    String gmsList() {
        List<String> list = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            List<String> at = new ArrayList<>();
            for (int r = 1; r <= Math.max(1, replicas); r++) {
                at.add("127.0.0.1:" + gmsPort(r, p));
            }
            list.add(String.join("/", at));
        }
        return String.join(",", list);
    }

    /** The control port replica {@code replica} (1 for lone replicas) serves {@code partition} on. */
    static int gmsPort(int replica, int partition) {
        return GMS_BASE_PORT + REPLICA_PORT_STEP * (replica - 1) + partition;
    }

    /** The names of the GMS processes: gms-r1.. for a replicated GMS, else gms-0.. (one per partition). */
    List<String> gmsNames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < (replicas > 0 ? replicas : partitions); i++) {
            names.add(replicas > 0 ? "gms-r" + (i + 1) : "gms-" + i);
        }
        return names;
    }

    /** Starts the GMS with {@code flags} added to every GMS process's command line, now and at restarts. */
    void startGms(String... flags) throws IOException {
        gmsFlags.clear();
        gmsFlags.addAll(List.of(flags));
        List<String> names = gmsNames();
        for (int i = 0; i < names.size(); i++) {
            startGmsProcess(i);
        }
        for (String name : names) {
            awaitLog(name, "listening");
        }
    }

    /** Starts GMS process {@code index} (the partition of a lone replica, else the replica id - 1) again. */
    void restartGms(int index) throws IOException {
        startGmsProcess(index);
        awaitLog(gmsNames().get(index), "listening");
    }

    /** Starts GMS process {@code index} with no waiting (its Raft state, if any, kept from before). */
    void startGmsProcess(int index) throws IOException {
        String name = gmsNames().get(index);
        List<String> args = new ArrayList<>(List.of("--partitions", Integer.toString(partitions),
                "--storage", logs.resolve(name + "-data").toString(), "--stats-interval", "5"));
        if (replicas > 0) {
            List<String> list = new ArrayList<>();
            for (int r = 1; r <= replicas; r++) {
                list.add(r + "=127.0.0.1:" + gmsPort(r, 0) + ":" + (RAFT_BASE_PORT + r));
            }
            args.addAll(List.of("--replicas", String.join(",", list), "--replica", Integer.toString(index + 1)));
        } else {
            args.addAll(List.of("--partition", Integer.toString(index), "--bind", "127.0.0.1",
                    "--port", Integer.toString(GMS_BASE_PORT),
                    "--raft-port", Integer.toString(RAFT_BASE_PORT + index)));
        }
        args.addAll(tlsOptions(name));
        args.addAll(gmsFlags);
        start(name, "io.ricochet.gms.GmsMain", args.toArray(String[]::new));
    }

    /** Whether the named process is running. */
    boolean isAlive(String name) {
        Process p = processes.get(name);
        return p != null && p.isAlive();
    }

    void startFd(List<Integer> nodes) throws IOException {
        List<String> members = new ArrayList<>();
        for (int node : nodes) {
            members.add(node + "@127.0.0.1:" + (HEARTBEAT_BASE_PORT + node));
        }
        List<String> args = new ArrayList<>(List.of("--id", "rack-1", "--bind", "127.0.0.1:" + FD_PORT,
                "--members", String.join(",", members), "--interval-ms", "100", "--miss", "5", "--gms", gmsList(),
                "--key-file", keyFile.toString()));
        args.addAll(tlsOptions("rack-1"));
        start("fd", "io.ricochet.fd.FdMain", args.toArray(String[]::new));
    }

    /**
     * Starts failure detector {@code id} on {@code port} with {@code flags} (--rack R, --standby, --members ...,
     * --watch-detectors ...), reporting to this cluster's GMS; its certificate is made on the way.
     */
    void startDetector(String id, int port, String... flags) throws IOException {
        if (!Files.exists(certs.resolve(id + ".pem"))) {
            makeCertificates(certs, "detector:" + id);
        }
        List<String> args = new ArrayList<>(List.of("--id", id, "--bind", "127.0.0.1:" + port, "--interval-ms",
                "100", "--miss", "5", "--gms", gmsList(), "--key-file", keyFile.toString()));
        args.addAll(List.of(flags));
        args.addAll(tlsOptions(id));
        start("fd-" + id, "io.ricochet.fd.FdMain", args.toArray(String[]::new));
    }

    void startDaemon(int node, String... extra) throws IOException {
        String name = "node-" + node;
        if (!Files.exists(certs.resolve(name + ".pem"))) {
            makeCertificates(certs, "daemon:" + name);
        }
        List<String> args = new ArrayList<>(List.of("daemon", "--node-id", Integer.toString(node),
                "--interface", "lo", "--address", "127.0.0.1",
                "--unicast-port", Integer.toString(UNICAST_BASE_PORT + node),
                "--heartbeat-port", Integer.toString(HEARTBEAT_BASE_PORT + node),
                "--api-port", Integer.toString(API_BASE_PORT + node), "--gms", gmsList(),
                "--seed", Integer.toString(node), "--stats-interval", "5", "--key-file", keyFile.toString()));
        args.addAll(tlsOptions(name));
        args.addAll(List.of(extra));
        startWithHeap("daemon-" + node, DAEMON_HEAP, "io.ricochet.cli.RicochetMain", args.toArray(String[]::new));
        awaitLog("daemon-" + node, "running");
    }

    static int apiPort(int node) {
        return API_BASE_PORT + node;
    }

    /** Kills a process without letting it clean up, as a crash would. */
    void crash(String name) throws InterruptedException {
        Process p = processes.remove(name);
        p.destroyForcibly();
        p.waitFor();
    }

    /** Stops a process with SIGSTOP, as a long pause (GC, swap, a debugger) would; {@link #resume} ends it. */
    void pause(String name) throws IOException, InterruptedException {
        signal(name, "-STOP");
    }

    /** Lets a process paused with {@link #pause} run again (SIGCONT). */
    void resume(String name) throws IOException, InterruptedException {
        signal(name, "-CONT");
    }

    private void signal(String name, String signal) throws IOException, InterruptedException {
        long pid = processes.get(name).pid();
        int exit = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IOException("kill " + signal + " " + pid + " (" + name + ") exited " + exit);
        }
    }

    /** Starts a process that keeps one CPU busy doing nothing useful, until the cluster closes. */
    void startCpuHog(String name) throws IOException {
        Path log = logs.resolve(name + ".log");
        processes.put(name, new ProcessBuilder("sh", "-c", "while :; do :; done").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start());
    }

    private void start(String name, String mainClass, String... args) throws IOException {
        startWithHeap(name, "-Xmx256m", mainClass, args);
    }

    /**
     * A daemon's heap: its packet buffers (about 93 MiB at the defaults) must fit half of it, and with its message
     * buffers (112 MiB) three quarters (Daemon.requireHeapFor); the package's unit gives 512 MiB.
     */
    private static final String DAEMON_HEAP = "-Xmx384m";

    private void startWithHeap(String name, String heap, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), heap,
                "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        Path log = logs.resolve(name + ".log");
        if (Files.exists(log)) {
            // A restart: keep the earlier incarnation's log beside the new one.
            Files.move(log, logs.resolve(name + "." + System.nanoTime() + ".log"));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        processes.put(name, p);
    }

    /** Waits until the named process's log contains {@code text}; fails with the log's tail if it never does. */
    void awaitLog(String name, String text) throws IOException {
        Path log = logs.resolve(name + ".log");
        await(Duration.ofSeconds(60), name + " to log '" + text + "'",
                () -> Files.exists(log) && read(log).contains(text));
    }

    String log(String name) {
        return read(logs.resolve(name + ".log"));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }

    /** Polls {@code condition} until it holds; a generous deadline, not a performance bound. */
    static void await(Duration deadline, String what, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("timed out after " + deadline.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    /** The run's cluster key file (mode 0600): a test that plays a member of the cluster seals with it. */
    Path keyFile() {
        return keyFile;
    }

    @Override
    public void close() {
        for (Process p : processes.values()) {
            // A paused process would not act on SIGTERM: let it run so it can stop (SIGCONT is harmless otherwise).
            try {
                new ProcessBuilder("kill", "-CONT", Long.toString(p.pid())).start().waitFor();
            } catch (IOException e) {
                // It is gone already.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            p.destroy();
        }
        for (Process p : processes.values()) {
            try {
                if (!p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }
}
