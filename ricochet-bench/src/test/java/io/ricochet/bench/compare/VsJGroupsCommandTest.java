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
    void aRateMakesTheSenderPacedAndTheReceiversStayQuiet() {
        ThroughputCommand paced = new ThroughputCommand();
        new CommandLine(paced).parseArgs("--rate", "50000", "--sizes", "1000", "--packaging", "processes",
                "--systems", "ricochet");
        java.util.List<MemberPlan> plans = paced.specs().get(0).plans();
        assertEquals(MemberPlan.Sending.PACED, plans.get(0).sending());
        assertEquals(50000.0, plans.get(0).rate());
        plans.subList(1, plans.size()).forEach(p -> assertEquals(MemberPlan.Sending.NONE, p.sending()));

        ThroughputCommand flat = new ThroughputCommand();
        new CommandLine(flat).parseArgs("--sizes", "1000", "--packaging", "processes", "--systems", "ricochet");
        assertEquals(MemberPlan.Sending.FLOOD, flat.specs().get(0).plans().get(0).sending(), "no rate: flat out");

        String[] negative = run("vs-jgroups", "throughput", "--rate", "-5");
        assertEquals("2", negative[0]);
        assertTrue(negative[1].contains("--rate -5.0: must be 0"), negative[1]);
    }

    @Test
    void roundsRepeatEveryTrialWithTheSystemsOrderReversedEveryOtherRound() {
        ThroughputCommand command = new ThroughputCommand();
        new CommandLine(command).parseArgs("--rounds", "3", "--sizes", "1000", "--packaging", "inprocess",
                "--systems", "jgroups,ricochet");
        java.util.List<String> order = command.specs().stream().map(s -> s.plans().get(0).system().cliName())
                .toList();
        assertEquals(java.util.List.of("jgroups", "ricochet", "ricochet", "jgroups", "jgroups", "ricochet"), order);
        java.util.Set<Integer> ports = new java.util.HashSet<>();
        command.specs().forEach(s -> ports.add(s.plans().get(0).basePort()));
        assertTrue(ports.size() > 1, "consecutive trials take ports in turn");
    }

    @Test
    void theDefaultsCompareEveryJGroupsConfigurationWithRicochetAtSizesItsDefaultsCarry() {
        ThroughputCommand command = new ThroughputCommand();
        new CommandLine(command).parseArgs("--packaging", "processes");
        java.util.List<Comparison.Spec> specs = command.specs();
        assertEquals(java.util.List.of("jgroups", "jgroups-link", "jgroups-encrypt", "ricochet", "jgroups",
                "jgroups-link", "jgroups-encrypt", "ricochet"), specs.stream()
                .map(s -> s.plans().get(0).system().cliName()).toList());
        assertEquals(java.util.Set.of(1000, 64), specs.stream().map(s -> s.plans().get(0).payloadBytes())
                .collect(java.util.stream.Collectors.toSet()));
        specs.forEach(s -> assertEquals(Link.LOOPBACK, s.link()));
        specs.forEach(s -> assertTrue(s.plans().get(0).credentials().endsWith("credentials")));
    }

    @Test
    void linksAndLossesSweepWithTheLinkOutermostAndLossOnlyInTheNetworkOnARealLink() {
        ThroughputCommand command = new ThroughputCommand();
        new CommandLine(command).parseArgs("--link", "mtu=1500,9000", "--loss", "0,0.001,0.01", "--sizes", "1000",
                "--packaging", "processes", "--systems", "jgroups-link,ricochet");
        java.util.List<Comparison.Spec> specs = command.specs();
        assertEquals(12, specs.size());
        assertEquals(java.util.List.of(1500, 1500, 1500, 1500, 1500, 1500, 9000, 9000, 9000, 9000, 9000, 9000),
                specs.stream().map(s -> s.link().mtu()).toList());
        assertEquals(java.util.List.of(0.0, 0.0, 0.001, 0.001, 0.01, 0.01), specs.subList(0, 6).stream()
                .map(Comparison.Spec::loss).toList());
        for (Comparison.Spec s : specs) {
            assertEquals(java.util.List.of(2, 3, 4), s.receivers(), "the sender gets no loss");
            for (MemberPlan p : s.plans()) {
                assertEquals(0, p.loss(), "the systems' own injectors are off on a real link");
                assertEquals(s.link().mtu(), p.mtu());
            }
        }
    }

    @Test
    void badLinksLossesAndPackagingsAreUsageErrors() {
        String[] mtu = run("vs-jgroups", "throughput", "--link", "mtu=100");
        assertEquals("2", mtu[0]);
        assertTrue(mtu[1].contains("link mtu=100: must be in 1280..9000"), mtu[1]);
        String[] name = run("vs-jgroups", "throughput", "--link", "ethernet");
        assertEquals("2", name[0]);
        assertTrue(name[1].contains("unknown link 'ethernet'"), name[1]);
        String[] loss = run("vs-jgroups", "throughput", "--loss", "0.7");
        assertEquals("2", loss[0]);
        assertTrue(loss[1].contains("loss = 0.7: must be a rate in [0, 0.5]"), loss[1]);
        String[] inprocess = run("vs-jgroups", "throughput", "--link", "mtu=1500");
        assertEquals("2", inprocess[0]);
        assertTrue(inprocess[1].contains("use --packaging processes"), inprocess[1]);
        String[] size = run("vs-jgroups", "throughput", "--sizes", "1024", "--packaging", "processes");
        assertEquals("2", size[0]);
        assertTrue(size[1].contains("does not fit Ricochet's payload 1024"), size[1]);
        assertEquals(Link.LOOPBACK, Link.parse("loopback"));
        assertEquals(new Link(9000), Link.parse("9000"));
    }
}
