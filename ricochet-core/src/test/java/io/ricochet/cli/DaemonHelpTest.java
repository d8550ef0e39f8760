package io.ricochet.cli;

import io.ricochet.daemon.DaemonSettings;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ricochet daemon --help} in the style of the other commands' help (issue 14). */
class DaemonHelpTest {

    @Test
    void shouldListTheSettingsInTheirOrderWithLabelsAndSentencesAndHelpLast() {
        CliRun run = CliRun.of("daemon", "--help");
        assertEquals(0, run.exitCode(), run.err());
        String help = run.out();
        assertFalse(help.contains("=VALUE"), "every value has a label saying what it is:\n" + help);
        assertFalse(help.contains("(default: )"), "an empty default is not shown:\n" + help);
        assertTrue(help.contains("--node-id=ID           This node's id, unique in the cluster (required)."), help);
        assertTrue(help.contains("--nak-timeout-ms=MS"), help);
        assertTrue(help.contains("--insecure=on|off"), help);
        int previous = help.indexOf("      --config=FILE");
        for (String key : DaemonSettings.KEYS.keySet()) {
            int at = help.indexOf("      --" + key + "=");
            assertTrue(at > previous, "--" + key + " is listed in the order of the settings");
            previous = at;
        }
        assertTrue(help.indexOf("  -h, --help") > previous && help.indexOf("  -V, --version") > previous,
                "--help and --version come last, as in the other commands");
    }

    @Test
    void shouldEndWithAFooterOfItsOwnNotTheToolsGenericOne() {
        String daemon = CliRun.of("daemon", "--help").out();
        String send = CliRun.of("send", "--help").out();
        String tool = CliRun.of("--help").out();
        String generic = "(e.g. a simulation failed verification)";
        assertTrue(tool.replaceAll("\\s+", " ").contains(generic), tool);
        assertFalse(daemon.replaceAll("\\s+", " ").contains(generic), daemon);
        assertFalse(send.replaceAll("\\s+", " ").contains(generic), send);
        assertTrue(daemon.replaceAll("\\s+", " ").contains("docs/operations.md, 1.4 Daemon settings"), daemon);
        assertTrue(send.replaceAll("\\s+", " ").contains("docs/api.md, Command line"), send);
    }

    @Test
    void shouldWriteEachDescriptionAsASentenceWithItsDefault() {
        assertEquals("Rate-of-fire r: data packets per repair (default: 8).",
                DaemonCommand.Flags.sentence("rate-of-fire r: data packets per repair", "8"));
        assertEquals("The key (required).", DaemonCommand.Flags.sentence("the key", null));
        assertEquals("A path.", DaemonCommand.Flags.sentence("a path", ""));
        assertEquals(List.of("MS", "PORT", "FILE", "N", "on|off", "LOSS"),
                List.of(DaemonCommand.Flags.label("nak-retry-ms", "50"), DaemonCommand.Flags.label("api-port", "7400"),
                        DaemonCommand.Flags.label("tls-ca", ""), DaemonCommand.Flags.label("r", "8"),
                        DaemonCommand.Flags.label("nak", "on"), DaemonCommand.Flags.label("inject-loss", "none")));
    }
}
