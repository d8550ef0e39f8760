package io.ricochet.bench.dist;

import io.ricochet.support.Directories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A GMS replica and one daemon (node 1), both started by a release's launchers (bin/ricochet-gms, bin/ricochet
 * daemon) on loopback without authentication; its local API on TCP 127.0.0.1:7400 and on a Unix socket. The system
 * tests' network namespace holds nothing else, so fixed ports cannot clash. Stopped by SIGTERM to each PID.
 */
final class ReleaseCluster implements AutoCloseable {
    static final String API = "127.0.0.1:7400";
    private static final long START_SECONDS = 60;

    private final Path run;
    private final List<Process> processes = new ArrayList<>();

    /** Starts the GMS, then the daemon, from {@code home}/bin; returns once the daemon's local API listens. */
    ReleaseCluster(Path home) throws IOException, InterruptedException {
        run = Files.createTempDirectory("release-cluster");
        boolean started = false;
        try {
            Path gmsLog = start(home, "ricochet-gms", "--insecure", "--port", "7100", "--raft-port", "7190",
                    "--storage", run.resolve("gms").toString());
            await(gmsLog, "listening");
            Path daemonLog = start(home, "ricochet", "daemon", "--insecure", "on", "--node-id", "1",
                    "--interface", "lo", "--address", "127.0.0.1", "--gms", "127.0.0.1:7100",
                    "--api-port", "7400", "--api-unix-socket", unixSocket().toString());
            await(daemonLog, "local API on");
            started = true;
        } finally {
            if (!started) {
                close();
            }
        }
    }

    /** The daemon's Unix domain socket. */
    Path unixSocket() {
        return run.resolve("api.sock");
    }

    private Path start(Path home, String launcher, String... args) throws IOException {
        Path log = run.resolve(launcher + "-" + processes.size() + ".log");
        List<String> command = new ArrayList<>(List.of(home.resolve("bin").resolve(launcher).toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(run.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        processes.add(builder.start());
        return log;
    }

    private void await(Path log, String text) throws IOException, InterruptedException {
        Process process = processes.get(processes.size() - 1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline) {
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (output.contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError(log.getFileName() + " ended (exit " + process.exitValue() + "):\n" + output);
            }
            Thread.sleep(100);
        }
        throw new AssertionError(log.getFileName() + " never said '" + text + "':\n" + Files.readString(log));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process process = processes.get(i);
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
        processes.clear();
        Directories.deleteTree(run);
    }
}
