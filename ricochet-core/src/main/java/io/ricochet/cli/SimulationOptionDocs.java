package io.ricochet.cli;

import java.util.ListResourceBundle;

/**
 * The descriptions of the simulator's flags of the daemon's settings ({@link SimulationOptions#DESCRIBED}), as
 * picocli reads them from a resource bundle by the flag's name: each its declaration's one line, a sentence with the
 * default, as {@code ricochet daemon --help} writes it. {@code --payload} keeps its own: in the simulator it is the
 * size of every data packet, not only the largest.
 */
public final class SimulationOptionDocs extends ListResourceBundle {
    /** The bundle's name, for picocli. */
    public static final String NAME = "io.ricochet.cli.SimulationOptionDocs";

    @Override
    protected Object[][] getContents() {
        return SimulationOptions.DESCRIBED.stream()
                .map(s -> new Object[] {s.name(), DaemonCommand.Flags.sentence(s.doc(), s.defaultText())})
                .toArray(Object[][]::new);
    }
}
