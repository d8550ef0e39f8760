package io.ricochet.support;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;

/**
 * Installs the one-line error reporting of {@link UsageErrorHandler} on the {@link CommandLine} being built; name
 * it as the {@code modelTransformer} of a top-level command. Picocli runs model transformers when the command line
 * is constructed, so this also holds for a {@code new CommandLine(...)} made elsewhere (tests, the bench).
 */
public final class UsageSetup implements CommandLine.IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec commandSpec) {
        CommandLine commandLine = commandSpec.commandLine();
        if (commandLine != null) {
            commandLine.setParameterExceptionHandler(new UsageErrorHandler());
        }
        return commandSpec;
    }
}
