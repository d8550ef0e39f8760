package io.ricochet.cli;

import io.ricochet.api.server.ApiListenException;
import io.ricochet.client.ApiAddress;
import io.ricochet.daemon.Daemon;
import io.ricochet.daemon.DaemonConfig;
import io.ricochet.daemon.DaemonSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet daemon}: runs the Ricochet daemon of this blade until SIGTERM / SIGINT, then leaves its groups
 * and stops. Settings come from {@code --config FILE} (a properties file whose keys are the flag names without
 * dashes) and from flags, which win. The flags are generated from {@link DaemonSettings#KEYS}.
 */
@Command(name = "daemon",
        modelTransformer = DaemonCommand.Flags.class,
        description = {"Runs the Ricochet daemon: multicast with LEC + NAK recovery, a GMS client and the local API.",
            "Settings: --config FILE (key=value lines, keys as the flags below without dashes), then flags.", ""})
public final class DaemonCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "properties file with daemon settings")
    private Path config;

    /** Adds one String option per settings key, so the file and the flags share one vocabulary. */
    public static final class Flags implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec commandSpec) {
            DaemonSettings.KEYS.forEach((key, meta) -> commandSpec.addOption(OptionSpec.builder("--" + key)
                    .type(String.class).paramLabel("VALUE")
                    .description(meta[1] + (meta[0] == null ? " (required)" : " (default: " + meta[0] + ")"))
                    .build()));
            return commandSpec;
        }
    }

    @Override
    public Integer call() throws Exception {
        DaemonConfig settings = settings();
        Daemon daemon;
        try {
            daemon = Daemon.start(settings);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (ApiListenException e) {
            throw new ParameterException(spec.commandLine(), apiSetting(e, settings) + ": " + e.reason());
        } catch (Exception e) {
            // A socket that cannot be bound, a key file that cannot be read: one line that says what, no trace.
            spec.commandLine().getErr().printf("ricochet daemon: node %d cannot start: %s%n", settings.nodeId(),
                    e.getMessage() != null ? e.getMessage() : e.toString());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            daemon.close();
            stopped.countDown();
        }, "ricochet-shutdown"));
        Path socket = settings.api().unixSocket();
        spec.commandLine().getOut().printf("ricochet daemon: node %d running, local API on %s:%d%s%n",
                daemon.nodeId(), settings.api().bindAddress(), daemon.apiPort(),
                socket == null ? "" : " and " + ApiAddress.unix(socket));
        spec.commandLine().getOut().flush();
        stopped.await();
        return 0;
    }

    /** The keys that set where the API failed to listen, with their values. */
    private static String apiSetting(ApiListenException e, DaemonConfig settings) {
        if (e.unixSocket() != null) {
            return "api-unix-socket = " + e.unixSocket();
        }
        return "api-bind = " + settings.api().bindAddress() + ", api-port = " + settings.api().port();
    }

    private DaemonConfig settings() {
        Map<String, String> flags = new LinkedHashMap<>();
        DaemonSettings.KEYS.keySet().forEach(key -> flags.put(key, spec.findOption("--" + key).getValue()));
        Properties file = null;
        if (config != null) {
            file = new Properties();
            try (Reader reader = Files.newBufferedReader(config)) {
                file.load(reader);
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "--config " + config + ": cannot read it ("
                        + e.getMessage() + ")");
            }
        }
        try {
            return DaemonSettings.resolve(file, config == null ? null : config.toString(), flags);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
