package io.ricochet.bench;

import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The option checks of the bench's commands: a broken rule or a value a parser refuses becomes picocli's usage error
 * (one line, exit 2), naming the option as the message says.
 */
public final class OptionChecks {
    private final CommandSpec spec;

    /** @param spec the command whose options are checked */
    public OptionChecks(CommandSpec spec) {
        this.spec = spec;
    }

    /** Refuses the command line with {@code message} unless {@code ok}. */
    public void check(boolean ok, String message) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /** The value {@code parse} makes, or the command line refused with the parser's message. */
    public <T> T parsed(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
