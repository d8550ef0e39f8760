package io.ricochet.bench.scripts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Functions of scripts/lib/cluster-*.sh, run in a bash harness that sources them. */
class ClusterLibraryTest {
    private static final String SOURCE = "set -euo pipefail; source \"$root/scripts/lib/cluster-common.sh\"; "
            + "source \"$root/scripts/lib/cluster-procs.sh\"; ";

    /**
     * A process the scripts start holds none of its caller's descriptors: a lock the caller holds on fd 9 is not
     * kept by the daemons it started (issue 14).
     */
    @Test
    void shouldStartAProcessWithoutTheCallersDescriptors(@TempDir Path dir) throws Exception {
        Path lock = dir.resolve("lock");
        ScriptRun run = ScriptRun.bash(SOURCE + "exec 9>'" + lock + "'; flock 9; "
                + "start_detached '" + dir.resolve("child.log") + "' sleep 120; echo $!");
        assertEquals(0, run.exitCode(), run.err());
        long pid = Long.parseLong(run.out().strip());
        try {
            // The harness returns as soon as the child is forked; the child closes and execs right after.
            String command = "";
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    !command.equals("sleep 120 ") && System.nanoTime() - deadline < 0; Thread.sleep(20)) {
                command = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
            }
            assertEquals("sleep 120 ", command, "$! is the started command itself");
            List<String> fds;
            try (var list = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                fds = list.map(p -> p.getFileName().toString()).sorted().toList();
            }
            assertEquals(List.of("0", "1", "2"), fds, "the child holds only its standard streams");
            Process free = new ProcessBuilder("flock", "-n", lock.toString(), "true").start();
            assertTrue(free.waitFor(10, TimeUnit.SECONDS));
            assertEquals(0, free.exitValue(), "the caller's lock went with the caller");
        } finally {
            new ProcessBuilder("kill", Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The demo's line on the failure detectors' verdicts: counted from the logs, 0 when none. */
    @Test
    void shouldCountTheFailureDetectorsVerdicts(@TempDir Path run) throws Exception {
        Files.createDirectories(run.resolve("logs"));
        Files.writeString(run.resolve("logs/fd-rack-1.log"), String.join("\n",
                "10:00:01.000 INFO  failure detector rack-1: watching 4 daemons (4 from the GMS: racks 1)",
                "10:00:05.000 WARN  node 3 (198.18.0.3:7500) FAILED: missed at least 5 rounds of 100 ms, ...",
                "10:00:09.000 INFO  node 3 (198.18.0.3:7500) RECOVERED: answers heartbeats again after 4000 ms ...",
                ""));
        Files.writeString(run.resolve("logs/fd-standby-1.log"),
                "10:00:07.000 INFO  node 5 (198.18.0.5:7500) RECOVERED: first answer since the GMS listed it here;"
                        + " reported, in case\n");
        Files.writeString(run.resolve("logs/fd-top.log"),
                "10:00:06.000 WARN  detector rack-2 (198.18.0.222:7200) FAILED: missed at least 5 rounds\n");
        ScriptRun counted = ScriptRun.bash(SOURCE + "fd_verdict_summary '" + run + "'");
        assertEquals(0, counted.exitCode(), counted.err());
        assertEquals("failure detector verdicts: 1 node failed (3), 1 node recovered, 1 detector failed (rack-2), "
                + "0 detector recovered\n", counted.out(), counted.err());

        Files.writeString(run.resolve("logs/fd-rack-1.log"), "10:00:01.000 INFO  failure detector rack-1: up\n");
        Files.delete(run.resolve("logs/fd-top.log"));
        ScriptRun none = ScriptRun.bash(SOURCE + "fd_verdict_summary '" + run + "'");
        assertEquals(0, none.exitCode(), "no verdict is no failure: " + none.err());
        assertEquals("failure detector verdicts: 0 node failed, 0 node recovered, 0 detector failed, "
                + "0 detector recovered\n", none.out(), none.err());
    }
}
