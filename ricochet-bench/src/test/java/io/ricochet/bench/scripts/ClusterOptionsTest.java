package io.ricochet.bench.scripts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/cluster and scripts/demo check every option before they create, stop or start anything (issue 14): a
 * typo in run-workload's --inject-loss once stopped every daemon of a running cluster and left it without any.
 */
class ClusterOptionsTest {
    /** The daemon's flag check runs on this test's class path, which holds ricochet-core (no jar to build). */
    private static final Map<String, String> CHECK_ON_TEST_CLASSES =
            Map.of("RICOCHET_CHECK_CLASSPATH", System.getProperty("java.class.path"));

    @ParameterizedTest
    @ValueSource(strings = {"up", "run-workload", "exec", "perturb", "link-loss", "status", "down"})
    void shouldAnswerHelpOfEachCommandWithItsOwnUsage(String command) throws Exception {
        for (String help : List.of("--help", "-h")) {
            ScriptRun run = ScriptRun.of(Map.of(), "cluster", command, help);
            assertEquals(0, run.exitCode(), command + " " + help + ": " + run.err());
            assertTrue(run.out().startsWith("Usage: scripts/cluster " + command + " "), run.out());
            assertTrue(run.out().contains("\n  " + command + " "), "its own part of the help: " + run.out());
            assertEquals("", run.err());
        }
    }

    @Test
    void shouldPointABadOptionAtItsCommandsHelp() throws Exception {
        ScriptRun run = ScriptRun.of(Map.of(), "cluster", "up", "--nodes", "0");
        assertEquals(2, run.exitCode());
        assertEquals("cluster: --nodes '0': must be an integer in 1..199\nTry 'scripts/cluster up --help'.\n",
                run.err());
    }

    @Test
    void shouldRefuseABadPerturbationBeforeTouchingAnyProcess() throws Exception {
        Map<String, String> cases = Map.of(
                "3 1.5", "cluster: FRACTION '1.5': must be above 0 and below 1 (the share of every period asleep)",
                "3", "cluster: perturb: which node and how long asleep? e.g. scripts/cluster perturb 3 0.25",
                "0 0.5", "cluster: NODE '0': must be an integer in 1..199",
                "3 0.2 --period 0", "cluster: --period '0': must be above 0 (a period of MS milliseconds)",
                "3 0.2 4", "cluster: perturb: one NODE and one FRACTION, e.g. scripts/cluster perturb 3 0.25");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            List<String> args = new java.util.ArrayList<>(List.of("perturb"));
            args.addAll(List.of(c.getKey().split(" ")));
            ScriptRun run = ScriptRun.of(Map.of(), "cluster", args.toArray(String[]::new));
            assertEquals(2, run.exitCode(), c.getKey());
            assertEquals(c.getValue() + "\nTry 'scripts/cluster perturb --help'.\n", run.err());
        }
    }

    @Test
    void shouldRefuseABadLinkLossBeforeTouchingAnyRule() throws Exception {
        Map<String, String> cases = Map.of(
                "", "cluster: link-loss: how much? PERMILLE per mille of the multicast, e.g. scripts/cluster "
                        + "link-loss 10 (1 %), or 0 to remove the loss",
                "1001", "cluster: PERMILLE '1001': must be an integer in 0..1000",
                "10 20", "cluster: link-loss: one PERMILLE, e.g. scripts/cluster link-loss 10",
                "10 --nodes 1,x", "cluster: --nodes '1,x': node numbers separated by commas, e.g. --nodes 1,3");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            List<String> args = new java.util.ArrayList<>(List.of("link-loss"));
            if (!c.getKey().isEmpty()) {
                args.addAll(List.of(c.getKey().split(" ")));
            }
            ScriptRun run = ScriptRun.of(Map.of(), "cluster", args.toArray(String[]::new));
            assertEquals(2, run.exitCode(), c.getKey());
            assertEquals(c.getValue() + "\nTry 'scripts/cluster link-loss --help'.\n", run.err());
        }
    }

    /**
     * The incident of issue 14 on a stand-in run: its one "daemon" is a process carrying the run's marker, which
     * a restart would stop. A loss rate of 2.0 is refused by the daemon's own parser, and the daemon lives on.
     */
    @Test
    void shouldRefuseABadInjectedLossBeforeStoppingAnyDaemon(@TempDir Path run) throws Exception {
        Files.createDirectories(run.resolve("pids"));
        Files.writeString(run.resolve("cluster.env"), "RC_PREFIX=rc-optionstest\nRC_NODES=1\nRC_INJECT_LOSS=none\n");
        Process daemon = new ProcessBuilder("bash", "-c", "sleep 120; :", "-Dricochet.cluster=rc-optionstest").start();
        try {
            Files.writeString(run.resolve("pids/node-1.pid"), daemon.pid() + "\n");
            ScriptRun refused = ScriptRun.of(CHECK_ON_TEST_CLASSES, "cluster", "run-workload", "--groups", "6",
                    "--degree", "3", "--inject-loss", "uniform:2.0", "--run-dir", run.toString());
            assertEquals(2, refused.exitCode(), refused.err());
            assertEquals("cluster: --inject-loss: inject-loss = uniform:2.0: loss rate '2.0' in 'uniform:2.0' must be "
                    + "a number in [0, 1)\nTry 'scripts/cluster run-workload --help'.\n", refused.err());
            assertTrue(daemon.isAlive(), "the daemon was not stopped");
            assertTrue(Files.exists(run.resolve("pids/node-1.pid")), "nor forgotten");
        } finally {
            daemon.destroy();
            daemon.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--seconds 0", "--rate 0", "--rate 0.0", "--seconds -1", "--nft-loss 1001",
        "--payload 20", "--degree 7"})
    void shouldRefuseAWorkloadThatCannotBeCheckedBeforeLookingForTheRun(String option) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("run-workload", "--groups", "6", "--degree", "3",
                "--run-dir", "/nonexistent/run"));
        args.addAll(List.of(option.split(" ")));
        ScriptRun run = ScriptRun.of(Map.of(), "cluster", args.toArray(String[]::new));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("cluster: " + option.split(" ")[0] + " '"), run.err());
    }

    @Test
    void shouldCheckTheOptionsOfUpBeforeItNeedsRootOrJava() throws Exception {
        ScriptRun run = ScriptRun.of(Map.of(), "cluster", "up", "--fd-miss", "0");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("cluster: --fd-miss '0': must be an integer in 1..1000\nTry 'scripts/cluster up --help'.\n",
                run.err());
    }

    @Test
    void shouldWarnThatAnEvenNumberOfGmsReplicasSurvivesNoMoreThanOneFewer() throws Exception {
        ScriptRun two = ScriptRun.of(Map.of(), "cluster", "up", "--gms-replicas", "2", "--fd-miss", "0");
        assertEquals(2, two.exitCode(), two.err());
        assertEquals("cluster: warning: --gms-replicas 2: Raft needs a majority of the replicas up (2 of 2), so 2 "
                + "survive no failure, as 1 would: use an odd number, 1 or 3\n"
                + "cluster: --fd-miss '0': must be an integer in 1..1000\nTry 'scripts/cluster up --help'.\n",
                two.err(), "a warning, then the options are checked on");
        ScriptRun three = ScriptRun.of(Map.of(), "cluster", "up", "--gms-replicas", "3", "--fd-miss", "0");
        assertFalse(three.err().contains("warning"), three.err());
    }

    /** Values that cannot give a verdict fail at once, before the demo builds, installs or creates anything. */
    @ParameterizedTest
    @ValueSource(strings = {"--seconds 0", "--rate 0", "--rate fast", "--nft-loss 2000", "--seconds"})
    void shouldRefuseADemoThatCannotGiveAVerdictBeforeItStarts(String option) throws Exception {
        Path runs = ScriptRun.root().resolve("runs");
        List<String> before = runs(runs);
        ScriptRun run = ScriptRun.of(Map.of(), "demo", option.split(" "));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("demo: " + option.split(" ")[0] + " "), run.err());
        assertFalse(run.err().contains("building"), "nothing was built: " + run.err());
        assertEquals(before, runs(runs), "no run folder was made");
    }

    private static List<String> runs(Path runs) throws Exception {
        if (!Files.isDirectory(runs)) {
            return List.of();
        }
        try (var list = Files.list(runs)) {
            return list.map(Path::toString).sorted().toList();
        }
    }
}
