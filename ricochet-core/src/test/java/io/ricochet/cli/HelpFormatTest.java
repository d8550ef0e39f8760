package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's --help renders as written: picocli reads each description as a format string, so a bare "%" (as
 * in "99 % of them") made it print a warning and the raw text instead.
 */
class HelpFormatTest {
    @Test
    void shouldRenderEveryCommandsHelpWithoutAFormatWarning() {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            CommandLine cli = new CommandLine(new RicochetMain());
            assertFalse(cli.getUsageMessage().isEmpty());
            for (Map.Entry<String, CommandLine> sub : cli.getSubcommands().entrySet()) {
                assertTrue(sub.getValue().getUsageMessage().contains("Usage: "), sub.getKey());
            }
        } finally {
            System.setErr(saved);
        }
        String err = captured.toString(StandardCharsets.UTF_8);
        assertFalse(err.contains("WARN"), err);
    }
}
