package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.setting.Setting;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import org.junit.jupiter.api.Test;

/**
 * The simulator's flags of the settings it shares with the daemon take default and description from their
 * declarations, in ricochet simulate and where the bench parses them alone.
 */
class SimulationOptionsSettingsTest {

    @Test
    void shouldTakeEachSharedFlagsDefaultFromItsDeclaration() {
        for (CommandLine line : new CommandLine[] {new CommandLine(new SimulateCommand()),
            new CommandLine(new SimulationOptions())}) {
            line.parseArgs();
            CommandSpec spec = line.getCommandSpec();
            for (Setting s : SimulationOptions.SHARED.values()) {
                Object value = spec.findOption("--" + s.name()).getValue();
                assertEquals(s.defaultText(), value instanceof Double d ? Decimals.plain(d)
                        : String.valueOf(value).toLowerCase(java.util.Locale.ROOT), "--" + s.name());
            }
            assertNull(spec.findOption("--qsm-token-interval-ms").getValue(), "unset: QSM's own, and no --protocol "
                    + "qsm needed");
        }
    }

    @Test
    void shouldDescribeEachSharedFlagAsTheDaemonDoes() {
        String help = CliRun.of("simulate", "--help").out().replaceAll("\\s+", " ");
        for (Setting s : SimulationOptions.DESCRIBED) {
            String sentence = DaemonCommand.Flags.sentence(s.doc(), s.defaultText());
            assertTrue(help.contains(sentence), "--" + s.name() + " says '" + sentence + "':\n" + help);
        }
        assertTrue(help.contains("--payload=BYTES Payload bytes of every data packet (default: 1024)."), help);
    }
}
