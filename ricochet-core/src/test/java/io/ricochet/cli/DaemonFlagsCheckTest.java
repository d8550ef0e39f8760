package io.ricochet.cli;

import io.ricochet.loss.LossSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The check scripts run before they stop a daemon: the daemon's own rules, nothing started. */
class DaemonFlagsCheckTest {

    private record Result(int exitCode, String err) {
    }

    private static Result check(String... args) {
        StringWriter err = new StringWriter();
        int exitCode = DaemonFlagsCheck.check(args, new PrintWriter(err, true));
        return new Result(exitCode, err.toString());
    }

    /** Good and bad loss models, among them the typo of issue 14 (a rate of 2.0) and forms a regex let through. */
    @ParameterizedTest
    @ValueSource(strings = {"none", "uniform:0.05", "UNIFORM:0.05", "uniform:5e-2", "uniform:.5", "bursty:0.1:3",
        "markov:0.1:2.5", "uniform:2.0", "uniform:1", "uniform:", "uniform", "none:1", "bursty:0.1:0",
        "bursty:0.1:1.5", "markov:0.9:1", "gaussian:0.1", "uniform:0.1:2", "uniform:-0.1", ""})
    void shouldJudgeEveryLossModelAsTheDaemonsParserDoes(String loss) {
        boolean parses;
        try {
            LossSpec.parse(loss);
            parses = true;
        } catch (IllegalArgumentException e) {
            parses = false;
        }
        Result result = check("--node-id", "1", "--inject-loss", loss);
        assertEquals(parses ? 0 : 2, result.exitCode(), loss + ": " + result.err());
        if (!parses) {
            assertTrue(result.err().startsWith("inject-loss = ") || result.err().startsWith("inject-loss is"),
                    "the reason names the setting: " + result.err());
        }
    }

    @Test
    void shouldRefuseAnUnknownFlagAndABadValueOfAnyOtherSetting() {
        Result unknown = check("--node-id", "1", "--rate-of-fire", "8");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("--rate-of-fire"), unknown.err());
        Result bad = check("--node-id", "1", "--r", "eight");
        assertEquals(2, bad.exitCode());
        assertEquals("r = eight: not a number (flags)", bad.err().strip());
    }

    @Test
    void shouldTakeTheFlagsTheClusterGivesEveryDaemonWithoutItsKeyAndCertificates() {
        Result result = check("--node-id", "3", "--rack", "2", "--interface", "v0", "--address", "198.18.0.3",
                "--unicast-port", "7300", "--api-bind", "127.0.0.1", "--api-port", "7400", "--gms",
                "198.18.0.200:7100,198.18.0.200:7101", "--seed", "3", "--inject-loss", "uniform:0.05",
                "--stats-interval", "10", "--r", "8", "--c", "5", "--stagger", "2");
        assertEquals(new Result(0, ""), result);
    }

    @Test
    void shouldCheckAKeyFileWhenOneIsGiven() {
        Result result = check("--node-id", "1", "--key-file", "/nonexistent/cluster.key");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().startsWith("key-file: "), result.err());
    }
}
