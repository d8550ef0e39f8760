package io.ricochet.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.api.ApiException;
import io.ricochet.api.NodeStats;
import io.ricochet.client.ApiAddress;
import io.ricochet.client.ApiConnectionException;
import io.ricochet.client.ClientOptions;
import io.ricochet.cli.StatsSource.Sample;
import io.ricochet.client.RicochetClient;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet stats}: prints the counters of the daemon on this blade, as an indented table (counters at 0 left
 * out unless {@code --all}) or as JSON (everything), once or, with {@code --watch}, as rates every interval. Exits 1
 * if the daemon cannot be reached, 2 on bad flags.
 */
@Command(name = "stats",
        sortOptions = false,
        description = {
            "Prints the counters of the Ricochet daemon: traffic, recovery and buffers, with the local API's own "
                + "counters under 'api'.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "Every counter: docs/api.md, Stats and Counters; watching a cluster: docs/operations.md, 1.5.",
        })
public final class StatsCommand implements Callable<Integer> {
    private static final int MIN_KEY_WIDTH = 24;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    /** The daemon's compressed latency histograms (base64, for workload summaries): in --json only. */
    private static final String HIDDEN_IN_TABLE = "latencyHistograms";
    private static final Duration DEFAULT_WATCH_INTERVAL = Duration.ofSeconds(2);

    @Spec
    private CommandSpec spec;

    @Mixin
    private Endpoint endpoint;

    @Option(names = "--json", description = "Print the counters as JSON instead of a table (every counter).")
    private boolean json;

    @Option(names = "--all", description = "Show every counter; by default those at 0 are left out, except the "
            + "traffic and recovery ones of the running protocol.")
    private boolean all;

    @Option(names = "--watch", description = "Print a block every --interval, with the counters as rates per "
            + "second, until q (then Enter) or Ctrl-D on a terminal, or Ctrl-C. A daemon that goes away is "
            + "reported on one line and asked again at each interval.")
    private boolean watch;

    @Option(names = "--interval", paramLabel = "SECONDS", converter = ValueConverters.Interval.class,
            description = "With --watch: seconds between blocks, 0.1 to 3600 (default: 2).")
    private Duration interval;

    @Option(names = "--count", paramLabel = "N",
            description = "With --watch: stop after N blocks; exit 1 if the daemon did not answer the last one.")
    private Integer count;

    private int watchExit;
    private boolean away;
    private Sample previous;

    @Override
    public Integer call() throws InterruptedException {
        if (!watch && (interval != null || count != null)) {
            throw new ParameterException(spec.commandLine(), (interval != null ? "--interval" : "--count")
                    + " only goes with --watch");
        }
        if (watch && json) {
            throw new ParameterException(spec.commandLine(), "--json and --watch do not go together: --json "
                    + "prints one reading for scripts; run it at the times you need");
        }
        if (count != null && count < 1) {
            throw new ParameterException(spec.commandLine(), "--count " + count + ": must be 1 or more");
        }
        if (watch) {
            return watch();
        }
        return endpoint.run("ricochet-stats", client -> {
            Map<String, Object> stats = asMap(client.stats());
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.print(ResultJson.write(stats));
            } else if (all) {
                out.print(table(stats));
            } else {
                StatsFilter.Filtered shown = StatsFilter.withoutZeroCounters(stats);
                out.print(table(shown.stats()));
                if (shown.hidden() > 0) {
                    out.println("(" + shown.hidden() + " counters at 0 not shown; --all shows them)");
                }
            }
            out.flush();
            return 0;
        });
    }

    /**
     * {@code --watch}: a daemon that cannot be reached at the start is an error (exit 1, as without --watch); one
     * that goes away later is said once on standard error and asked again at each interval.
     */
    private int watch() throws InterruptedException {
        ApiAddress address = endpoint.address();
        Duration every = interval != null ? interval : DEFAULT_WATCH_INTERVAL;
        PrintWriter out = spec.commandLine().getOut();
        StatsSource source = new StatsSource(address, ClientOptions.defaults().withClientName("ricochet-stats"),
                System::nanoTime);
        Sample first = source.poll();
        if (!first.ok()) {
            source.close();
            return endpoint.fail(first.error());
        }
        LiveSession.Keys keys = Terminal.isTerminal(Terminal.STDIN) ? LiveSession.Keys.LINES : LiveSession.Keys.NONE;
        try (source; LiveSession session = new LiveSession(keys, false, out, System.in)) {
            session.run(every, count == null ? 0 : count, () -> {
                Sample now = previous == null ? first : source.poll();
                if (!now.ok()) {
                    if (!away) {
                        endpoint.fail("the daemon at " + address + " went away (" + now.error() + "); asking "
                                + "again every " + Decimals.plain(every.toMillis() / 1000.0) + " s");
                        away = true;
                    }
                    watchExit = 1;
                    return true;
                }
                if (away) {
                    endpoint.fail("the daemon at " + address + " answers again");
                    away = false;
                }
                watchExit = 0;
                out.print(WatchBlock.render(previous, now, all, LocalTime.now()));
                out.flush();
                previous = now;
                return !out.checkError();
            });
        }
        return watchExit;
    }

    /** The stats as a tree of maps, lists and values, in the record's field order (what the table walks). */
    static Map<String, Object> asMap(NodeStats stats) {
        return MAPPER.convertValue(stats, MAP);
    }

    /** The stats as lines of {@code key value}, nested maps indented under their key, values aligned. */
    static String table(Map<String, Object> stats) {
        StringBuilder text = new StringBuilder();
        rows(stats, "", Math.max(MIN_KEY_WIDTH, keyWidth(stats, "")), text);
        return text.toString();
    }

    private static void rows(Map<?, ?> map, String indent, int width, StringBuilder text) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (HIDDEN_IN_TABLE.equals(entry.getKey())) {
                continue;
            }
            String key = indent + entry.getKey();
            if (entry.getValue() instanceof Map<?, ?> nested) {
                text.append(key).append('\n');
                rows(nested, indent + "  ", width, text);
            } else {
                String row = String.format(Locale.ROOT, "%-" + width + "s  %s", key, value(entry.getValue()));
                text.append(row.stripTrailing()).append('\n');
            }
        }
    }

    private static int keyWidth(Map<?, ?> map, String indent) {
        int width = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (HIDDEN_IN_TABLE.equals(entry.getKey())) {
                continue;
            }
            width = Math.max(width, indent.length() + String.valueOf(entry.getKey()).length());
            if (entry.getValue() instanceof Map<?, ?> nested) {
                width = Math.max(width, keyWidth(nested, indent + "  "));
            }
        }
        return width;
    }

    private static String value(Object value) {
        if (value instanceof Double d) {
            return Decimals.plain(d);
        }
        if (value instanceof Collection<?> list) {
            return list.toString();
        }
        return String.valueOf(value);
    }

    /**
     * The {@code --api HOST:PORT} flag of the commands that talk to a daemon (send, listen, stats), and the
     * connection it names: reports an unreachable daemon or a refused request on one line and exits 1.
     */
    public static final class Endpoint {
        @Spec(Spec.Target.MIXEE)
        private CommandSpec mixee;

        @Option(names = "--api", paramLabel = "HOST:PORT|unix:PATH", defaultValue = ApiAddress.DEFAULT,
                description = "The daemon's local API: TCP, or its Unix domain socket (default: ${DEFAULT-VALUE}).")
        private String api;

        /** What a command does with its connection; returns the exit code. */
        interface Session {
            int run(RicochetClient client) throws InterruptedException;
        }

        /** Connects as {@code clientName}, runs {@code session}, closes; failures become one line and exit 1. */
        int run(String clientName, Session session) {
            return run(ClientOptions.defaults().withClientName(clientName), session);
        }

        /** As {@link #run(String, Session)}, with the client's options given. */
        int run(ClientOptions options, Session session) {
            ApiAddress address = address();
            try (RicochetClient client = address.connect(options)) {
                return session.run(client);
            } catch (ApiConnectionException e) {
                return fail(e.getMessage());
            } catch (ApiException e) {
                return fail(e.getMessage() + " (" + e.code() + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return fail("interrupted");
            }
        }

        /** Prints {@code message} as {@code ricochet CMD: message} on standard error; returns exit code 1. */
        int fail(String message) {
            PrintWriter err = mixee.commandLine().getErr();
            err.println(mixee.qualifiedName() + ": " + message);
            err.flush();
            return 1;
        }

        ApiAddress address() {
            try {
                return ApiAddress.parse(api);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(mixee.commandLine(), "--api '" + api + "': " + e.getMessage());
            }
        }
    }
}
