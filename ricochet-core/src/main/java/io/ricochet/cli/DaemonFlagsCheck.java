package io.ricochet.cli;

import io.ricochet.daemon.DaemonSettings;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Checks {@code ricochet daemon} flags by the daemon's own rules without starting anything, for scripts that must
 * refuse a bad value before they stop a running daemon ({@code scripts/cluster run-workload --inject-loss}):
 *
 * <pre>
 *   java -cp ricochet.jar io.ricochet.cli.DaemonFlagsCheck --node-id 1 --inject-loss uniform:2.0
 * </pre>
 *
 * Exit 0 when {@code ricochet daemon} would take the flags, else 2 with its one-line reason on standard error.
 * The key and certificate files are the caller's to make later: without {@code --key-file} and {@code --insecure}
 * the flags are checked as if {@code --insecure on} were given.
 */
public final class DaemonFlagsCheck {

    private DaemonFlagsCheck() {
    }

    /**
     * Checks {@code args} and exits 0 (the daemon would take them) or 2.
     *
     * @param args {@code ricochet daemon} flags
     */
    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(check(args, err));
    }

    /** The exit code of the check of {@code args}; the reason of a refusal goes to {@code err}, one line. */
    static int check(String[] args, PrintWriter err) {
        CommandLine line = new CommandLine(new DaemonCommand());
        CommandSpec spec = line.getCommandSpec();
        try {
            line.parseArgs(args);
            Map<String, String> flags = DaemonCommand.flagValues(spec);
            if (flags.get("key-file") == null && flags.get("insecure") == null) {
                flags.put("insecure", "on");
            }
            DaemonSettings.resolve(null, null, flags);
            return 0;
        } catch (ParameterException | IllegalArgumentException e) {
            err.println(e.getMessage() == null ? e.toString() : e.getMessage().strip().replaceAll("\\s*\\R\\s*", " "));
            return 2;
        }
    }
}
