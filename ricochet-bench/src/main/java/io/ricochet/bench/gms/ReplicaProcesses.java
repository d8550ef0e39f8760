package io.ricochet.bench.gms;

import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.Serving;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * GMS replica processes ({@code io.ricochet.gms.GmsMain} from this JVM's class path) on 127.0.0.1: replica r serves
 * partition 0 on {@code basePort + 10 (r - 1)} and speaks Raft on {@code basePort + 90 + r}, plaintext, its Raft
 * state under {@code dir}. Logs go to {@code dir/gms-r<r>.log}. Finds the leader by the greeting: only the leader
 * answers SERVING.
 */
final class ReplicaProcesses implements AutoCloseable {
    private static final int PORT_STEP = 10;
    private static final int RAFT_OFFSET = 90;

    private final Path dir;
    private final int basePort;
    private final int count;
    private final int electionTimeoutMs;
    private final Process[] processes;
    private final long[] logSizeAtStart;

    ReplicaProcesses(Path dir, int basePort, int count, int electionTimeoutMs) {
        this.dir = dir;
        this.basePort = basePort;
        this.count = count;
        this.electionTimeoutMs = electionTimeoutMs;
        this.processes = new Process[count + 1];
        this.logSizeAtStart = new long[count + 1];
    }

    InetSocketAddress address(int replica) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), basePort + PORT_STEP * (replica - 1));
    }

    /** Every replica's address, for a client's list of partition 0's replicas. */
    List<InetSocketAddress> addresses() {
        List<InetSocketAddress> list = new ArrayList<>();
        for (int r = 1; r <= count; r++) {
            list.add(address(r));
        }
        return list;
    }

    void startAll() throws IOException {
        for (int r = 1; r <= count; r++) {
            start(r);
        }
    }

    void start(int replica) throws IOException {
        List<String> list = new ArrayList<>();
        for (int r = 1; r <= count; r++) {
            list.add(r + "=127.0.0.1:" + address(r).getPort() + ":" + (basePort + RAFT_OFFSET + r));
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), "io.ricochet.gms.GmsMain", "--insecure",
                "--partitions", "1", "--replicas", String.join(",", list), "--replica", Integer.toString(replica),
                "--storage", dir.resolve("r" + replica).toString(), "--stats-interval", "3600",
                "--election-timeout-ms", Integer.toString(electionTimeoutMs)));
        Files.createDirectories(dir);
        Path log = dir.resolve("gms-r" + replica + ".log");
        logSizeAtStart[replica] = Files.exists(log) ? Files.size(log) : 0;
        processes[replica] = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    /**
     * Waits until a restarted {@code replica} knows the partition's leader again (its log says so after its last
     * start: the log is appended to across starts), so that the next kill leaves a majority; returns whether it
     * did within {@code timeoutMs}.
     */
    boolean awaitCaughtUp(int replica, long timeoutMs) throws IOException, InterruptedException {
        Path log = dir.resolve("gms-r" + replica + ".log");
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() - deadline < 0) {
            String text = Files.exists(log) ? Files.readString(log) : "";
            if (text.indexOf("leader is now", (int) Math.min(text.length(), logSizeAtStart[replica])) >= 0) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /**
     * The wall-clock time (ms) of the earliest "leader is now ... (this replica)" line a live replica logged at or
     * after {@code sinceMs} (log lines carry HH:mm:ss.SSS of this host's clock, today), or -1 if none.
     */
    long electedAfter(long sinceMs) throws IOException {
        java.time.LocalDate today = java.time.LocalDate.now();
        java.time.ZoneId zone = java.time.ZoneId.systemDefault();
        long best = Long.MAX_VALUE;
        for (int r = 1; r <= count; r++) {
            Path log = dir.resolve("gms-r" + r + ".log");
            if (!isAlive(r) || !Files.exists(log)) {
                continue;
            }
            for (String line : Files.readAllLines(log)) {
                if (line.length() < 12 || !line.contains("leader is now") || !line.contains("(this replica)")) {
                    continue;
                }
                try {
                    long at = java.time.LocalTime.parse(line.substring(0, 12)).atDate(today).atZone(zone)
                            .toInstant().toEpochMilli();
                    if (at >= sinceMs) {
                        best = Math.min(best, at);
                    }
                } catch (java.time.format.DateTimeParseException e) {
                    // Not a log line of ours.
                }
            }
        }
        return best == Long.MAX_VALUE ? -1 : best;
    }

    /** Kills {@code replica} with SIGKILL and waits for it to be gone. */
    void kill(int replica) throws InterruptedException {
        processes[replica].destroyForcibly();
        processes[replica].waitFor();
    }

    /** The process id of {@code replica}. */
    long pid(int replica) {
        return processes[replica].pid();
    }

    boolean isAlive(int replica) {
        return processes[replica] != null && processes[replica].isAlive();
    }

    /** Waits up to {@code timeoutMs} for a replica that greets with SERVING; returns it, or 0. */
    int awaitLeader(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() - deadline < 0) {
            for (int r = 1; r <= count; r++) {
                if (isAlive(r) && greetsServing(address(r))) {
                    return r;
                }
            }
            Thread.sleep(20);
        }
        return 0;
    }

    /** Reads the first message of a new session at {@code address}: whether it is SERVING. */
    static boolean greetsServing(InetSocketAddress address) {
        try (Socket socket = new Socket()) {
            socket.connect(address, 500);
            socket.setSoTimeout(1000);
            return read(new DataInputStream(socket.getInputStream())) instanceof Serving;
        } catch (IOException | ControlDecodeException e) {
            return false;
        }
    }

    /** One control frame from {@code in}. */
    static ControlMessage read(DataInputStream in) throws IOException, ControlDecodeException {
        int length = in.readInt();
        if (length < 1 || length > ControlCodec.MAX_LENGTH_FIELD) {
            throw new IOException("bad frame length " + length);
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return ControlCodec.decode(Unpooled.wrappedBuffer(body));
    }

    @Override
    public void close() {
        for (Process p : processes) {
            if (p != null) {
                p.destroy();
            }
        }
        for (Process p : processes) {
            if (p != null) {
                try {
                    if (!p.waitFor(10, TimeUnit.SECONDS)) {
                        p.destroyForcibly().waitFor();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
