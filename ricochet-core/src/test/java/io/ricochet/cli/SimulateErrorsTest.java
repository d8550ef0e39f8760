package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SimulateErrorsTest {

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("--bogus", "Unknown option: '--bogus'"),
                Arguments.of("--nodes x", "--nodes 'x'"),
                Arguments.of("--loss foo", "--loss 'foo': loss model 'foo' is not recognised; use none, uniform:L"),
                Arguments.of("--loss uniform:2", "--loss 'uniform:2': loss rate '2'"),
                Arguments.of("--loss-scope some", "--loss-scope 'some'"),
                Arguments.of("--nak maybe", "--nak 'maybe': must be on or off"),
                Arguments.of("--nak true", "--nak 'true': must be on or off"),
                Arguments.of("--nodes 1", "--nodes 1: must be in 2..4096"),
                Arguments.of("--group-size 100 --nodes 8", "--group-size 100:"),
                Arguments.of("--payload 5000", "--payload 5000: must be in 1.."),
                Arguments.of("--r 0", "--r 0: must be in 1.."),
                Arguments.of("--c -1", "--c -1.0:"),
                Arguments.of("--stagger 0", "--stagger 0:"),
                Arguments.of("--seconds -1", "--seconds -1.0:"),
                Arguments.of("--seconds NaN", "--seconds NaN:"),
                Arguments.of("--nak-timeout-ms 0", "--nak-timeout-ms 0: must be positive"),
                Arguments.of("--nak-retry-ms NaN", "--nak-retry-ms NaN:"),
                Arguments.of("--session-delay-ms -1", "--session-delay-ms -1: must be 0 or more"),
                Arguments.of("--latency-us -5", "--latency-us -5:"),
                Arguments.of("--data-cache 0", "--data-cache 0:"),
                Arguments.of("--json /no/such/dir/x.json", "--json /no/such/dir/x.json: directory"),
                Arguments.of("--plan /no/such/plan.json", "--plan /no/such/plan.json: not a readable JSON file"));
    }

    @ParameterizedTest(name = "simulate {0}")
    @MethodSource("badInputs")
    void shouldRefuseBadInputOnOneLine(String arguments, String expected) {
        CliRun run = CliRun.line("simulate " + arguments);

        assertEquals(2, run.exitCode(), run.err());
        String[] lines = run.err().split("\\R");
        assertEquals(2, lines.length, run.err());
        assertTrue(lines[0].startsWith("ricochet simulate: "), lines[0]);
        assertTrue(lines[0].contains(expected), lines[0]);
        assertEquals("Try 'ricochet simulate --help'.", lines[1]);
        assertFalse(run.err().contains("Exception"), run.err());
        assertFalse(run.err().contains("at io."), run.err());
        assertEquals("", run.out());
    }
}
