package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.bench.BenchMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class VsJGroupsCommandTest {
    private static String[] run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new BenchMain());
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new String[] {Integer.toString(code), err.toString()};
    }

    @Test
    void badArgumentsAreUsageErrorsThatSayWhatIsWrong() {
        String[] ttl = run("vs-jgroups", "throughput", "--ttl", "2");
        assertEquals("2", ttl[0]);
        assertTrue(ttl[1].contains("ttl = 2: must be 0 or 1"), ttl[1]);
        String[] system = run("vs-jgroups", "recovery", "--systems", "jgroups,zeromq");
        assertEquals("2", system[0]);
        assertTrue(system[1].contains("unknown system 'zeromq'"), system[1]);
        String[] degree = run("vs-jgroups", "recovery", "--degrees", "0");
        assertEquals("2", degree[0]);
        assertTrue(degree[1].contains("--degrees 0: must be in 1..1024"), degree[1]);
        String[] size = run("vs-jgroups", "throughput", "--sizes", "8");
        assertEquals("2", size[0]);
        assertTrue(size[1].contains("message size = 8"), size[1]);
        assertEquals("2", run("vs-jgroups")[0]);
        String[] rounds = run("vs-jgroups", "throughput", "--rounds", "0");
        assertEquals("2", rounds[0]);
        assertTrue(rounds[1].contains("--rounds 0: must be in 1..20"), rounds[1]);
    }

    @Test
    void roundsRepeatEveryTrialWithTheSystemsOrderReversedEveryOtherRound() {
        ThroughputCommand command = new ThroughputCommand();
        new CommandLine(command).parseArgs("--rounds", "3", "--sizes", "1024", "--packaging", "inprocess");
        java.util.List<String> order = command.specs().stream().map(s -> s.plans().get(0).system().cliName())
                .toList();
        assertEquals(java.util.List.of("jgroups", "ricochet", "ricochet", "jgroups", "jgroups", "ricochet"), order);
        java.util.Set<Integer> ports = new java.util.HashSet<>();
        command.specs().forEach(s -> ports.add(s.plans().get(0).basePort()));
        assertTrue(ports.size() > 1, "consecutive trials take ports in turn");
    }
}
