package io.ricochet.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet fountain}: bulk data by Digital Fountain carousel (docs/design/fountain.md, section 7). Its
 * subcommands are {@code send} and {@code recv}.
 */
@Command(name = "fountain",
        subcommands = {FountainSendCommand.class, FountainRecvCommand.class},
        synopsisSubcommandLabel = "send|recv",
        description = {
            "Bulk data by Digital Fountain carousel: 'send' multicasts LT encoding symbols of a file without end; "
                + "'recv' may start at any moment, stops once it has decoded the file, and checks its SHA-256. "
                + "Losses cost a receiver only time, never repair traffic: run the daemons with protocol = ipmc.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "The carousel and its flags: docs/operations.md, 1.8 Bulk data; design: docs/design/fountain.md.",
        })
public final class FountainCommand implements Callable<Integer> {
    /** The robust soliton parameters of the carousel's code (docs/design/fountain.md, "Parameters"). */
    static final double C = 0.03;
    static final double DELTA = 0.001;
    /** Default of --max-bytes: files up to 256 MiB (a receiver holds about three times the file). */
    static final long DEFAULT_MAX_BYTES = 256L << 20;
    /** Highest --max-bytes: 1 GiB. */
    static final long MAX_MAX_BYTES = 1L << 30;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no subcommand given; use send or recv");
    }

    /** Checks --max-bytes, with the fix in the message. */
    static void checkMaxBytes(CommandSpec spec, long maxBytes) {
        if (maxBytes < 1 || maxBytes > MAX_MAX_BYTES) {
            throw new ParameterException(spec.commandLine(), "--max-bytes " + maxBytes + ": must be in 1.."
                    + MAX_MAX_BYTES + " (1 GiB)");
        }
    }
}
