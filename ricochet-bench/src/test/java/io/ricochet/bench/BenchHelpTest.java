package io.ricochet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.cli.UsageWarnings;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every bench command's --help renders as written ({@link UsageWarnings}: a bare "%" in a description did not). */
class BenchHelpTest {
    @Test
    void shouldRenderEveryCommandsHelpWithoutAFormatWarning() {
        assertEquals("", UsageWarnings.of(new CommandLine(new BenchMain())));
    }
}
