package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's --help renders as written ({@link UsageWarnings}: a bare "%" in a description did not). */
class HelpFormatTest {
    @Test
    void shouldRenderEveryCommandsHelpWithoutAFormatWarning() {
        assertEquals("", UsageWarnings.of(new CommandLine(new RicochetMain())));
    }
}
