package io.ricochet.cli;

import io.ricochet.api.server.ApiListenException;
import io.ricochet.daemon.Daemon;
import io.ricochet.daemon.DaemonConfig;
import io.ricochet.daemon.DaemonSettings;
import io.ricochet.daemon.LeakDetection;
import io.ricochet.setting.Setting;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
        sortOptions = false,
        modelTransformer = DaemonCommand.Flags.class,
        description = {"Runs the Ricochet daemon: multicast with LEC + NAK recovery, a GMS client and the local API.",
            "Settings: --config FILE (key=value lines, keys as the flags below without dashes), then flags.", ""},
        footer = {
            "",
            "Exit status: 0 stopped by SIGTERM/SIGINT, 1 could not start or the GMS refused it, 2 bad settings.",
            "Every setting, and running daemons on real hosts: docs/operations.md, 1.4 Daemon settings.",
        })
public final class DaemonCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", order = 0,
            description = "Properties file with daemon settings; flags given beside it win.")
    private Path config;

    /**
     * Adds one String option per settings key, so the file and the flags share one vocabulary, in the help style
     * of the other commands: in the order of {@link DaemonSettings#KEYS}, a label saying what the value is, and a
     * sentence ending with its default.
     */
    public static final class Flags implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec commandSpec) {
            int order = 1;
            for (Setting key : DaemonSettings.KEYS.values()) {
                commandSpec.addOption(OptionSpec.builder("--" + key.name()).type(String.class).order(order++)
                        .paramLabel(label(key.name(), key.defaultText()))
                        .description(sentence(key.doc(), key.defaultText())).build());
            }
            // --help and --version last, as in the other commands' help.
            for (OptionSpec help : List.copyOf(commandSpec.options())) {
                if (help.usageHelp() || help.versionHelp()) {
                    commandSpec.remove(help);
                    commandSpec.addOption(help.toBuilder().order(order++).build());
                }
            }
            return commandSpec;
        }

        /** What the value is, as the other commands label theirs: MS, PORT, FILE, N, on|off, or the key's noun. */
        static String label(String key, String defaultValue) {
            if ("on".equals(defaultValue) || "off".equals(defaultValue)) {
                return "on|off";
            }
            if (key.endsWith("-ms") || key.endsWith("-us") || key.endsWith("-port")) {
                return key.substring(key.lastIndexOf('-') + 1).toUpperCase(Locale.ROOT);
            }
            if (key.equals("key-file") || key.startsWith("tls-") || key.equals("api-unix-socket")) {
                return "FILE";
            }
            if (defaultValue != null && defaultValue.matches("\\d+")) {
                return "N";
            }
            return key.substring(key.lastIndexOf('-') + 1).toUpperCase(Locale.ROOT);
        }

        /** The description as a sentence, with the default (none shown when it is empty) or "required". */
        static String sentence(String description, String defaultValue) {
            String text = Character.toUpperCase(description.charAt(0)) + description.substring(1);
            if (defaultValue == null) {
                return text + " (required).";
            }
            return defaultValue.isEmpty() ? text + "." : text + " (default: " + defaultValue + ").";
        }
    }

    @Override
    public Integer call() throws Exception {
        DaemonConfig settings = settings();
        LeakDetection.offUnlessSet();
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
        Thread shutdown = new Thread(() -> {
            daemon.close();
            stopped.countDown();
        }, "ricochet-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        spec.commandLine().getOut().printf("ricochet daemon: node %d running, local API on %s%n",
                daemon.nodeId(), daemon.apiListeners());
        spec.commandLine().getOut().flush();
        // A misconfiguration only the GMS can see (a key that differs from the cluster's) stops the daemon too.
        String[] fatal = new String[1];
        daemon.fatal().thenAccept(error -> {
            fatal[0] = error;
            stopped.countDown();
        });
        stopped.await();
        if (fatal[0] != null) {
            spec.commandLine().getErr().printf("ricochet daemon: %s%n", fatal[0]);
            spec.commandLine().getErr().flush();
            stopNow(daemon, shutdown);
            return 1;
        }
        return 0;
    }

    /**
     * Stops {@code daemon} on this thread instead of in {@code hook}, which is removed: so a command run in a JVM that
     * goes on (a test) leaves no daemon behind. If the JVM is already stopping, the hook stops it.
     */
    private static void stopNow(Daemon daemon, Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException stopping) {
            return;
        }
        daemon.close();
    }

    /** The keys that set where the API failed to listen, with their values. */
    private static String apiSetting(ApiListenException e, DaemonConfig settings) {
        if (e.unixSocket() != null) {
            return "api-unix-socket = " + e.unixSocket();
        }
        return "api-bind = " + settings.api().bindAddress() + ", api-port = " + settings.api().port();
    }

    /** The settings flags of a parsed {@code ricochet daemon} command line: key -> text, null where not given. */
    static Map<String, String> flagValues(CommandSpec spec) {
        Map<String, String> flags = new LinkedHashMap<>();
        DaemonSettings.KEYS.keySet().forEach(key -> flags.put(key, spec.findOption("--" + key).getValue()));
        return flags;
    }

    private DaemonConfig settings() {
        Map<String, String> flags = flagValues(spec);
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
