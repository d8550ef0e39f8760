package io.ricochet.support;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * Reports bad command-line input on one line of standard error, then points at {@code --help}:
 *
 * <pre>
 *   ricochet simulate: --loss 'foo': loss model 'foo' is not recognised; use none, uniform:L, ...
 *   Try 'ricochet simulate --help'.
 * </pre>
 *
 * Commands report their own validation failures the same way by throwing a {@link ParameterException}. An unknown
 * option is reported before anything else that is wrong with the line: picocli checks for missing required options
 * first, and {@code ricochet send --gropu 42} would otherwise say that {@code --group} is missing.
 */
public final class UsageErrorHandler implements CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine commandLine = ex.getCommandLine();
        String name = commandLine.getCommandSpec().qualifiedName();
        PrintWriter err = commandLine.getErr();
        err.println(name + ": " + oneLine(describe(ex)));
        err.println("Try '" + name + " --help'.");
        err.flush();
        return commandLine.getCommandSpec().exitCodeOnInvalidInput();
    }

    private static String describe(ParameterException ex) {
        CommandLine commandLine = ex.getCommandLine();
        if (!(ex instanceof UnmatchedArgumentException) && !commandLine.isUnmatchedArgumentsAllowed()
                && !commandLine.getUnmatchedArguments().isEmpty()) {
            return describe(new UnmatchedArgumentException(commandLine, commandLine.getUnmatchedArguments()));
        }
        if (ex instanceof UnmatchedArgumentException unmatched) {
            List<String> suggestions = unmatched.getSuggestions();
            return suggestions.isEmpty() ? ex.getMessage()
                    : ex.getMessage() + " (did you mean " + String.join(" or ", suggestions) + "?)";
        }
        if (ex.getCause() instanceof TypeConversionException conversion
                && ex.getArgSpec() instanceof OptionSpec option && ex.getValue() != null) {
            return option.longestName() + " '" + ex.getValue() + "': " + conversion.getMessage();
        }
        return ex.getMessage();
    }

    private static String oneLine(String message) {
        return message == null ? "invalid input" : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
