package io.ricochet.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.api.ApiException;
import io.ricochet.api.NodeStats;
import io.ricochet.client.ApiAddress;
import io.ricochet.client.ApiConnectionException;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import java.io.PrintWriter;
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
 * {@code ricochet stats}: prints the counters of the daemon on this blade, as an indented table or as JSON. Exits 1
 * if the daemon cannot be reached, 2 on bad flags.
 */
@Command(name = "stats",
        sortOptions = false,
        description = {
            "Prints the counters of the Ricochet daemon: traffic, recovery and buffers, with the local API's own "
                + "counters under 'api'.",
            "",
        })
public final class StatsCommand implements Callable<Integer> {
    private static final int MIN_KEY_WIDTH = 24;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    /** The daemon's compressed latency histograms (base64, for workload summaries): in --json only. */
    private static final String HIDDEN_IN_TABLE = "latencyHistograms";

    @Spec
    private CommandSpec spec;

    @Mixin
    private Endpoint endpoint;

    @Option(names = "--json", description = "Print the counters as JSON instead of a table.")
    private boolean json;

    @Override
    public Integer call() {
        return endpoint.run("ricochet-stats", client -> {
            Map<String, Object> stats = asMap(client.stats());
            PrintWriter out = spec.commandLine().getOut();
            out.print(json ? ResultJson.write(stats) : table(stats));
            out.flush();
            return 0;
        });
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

        private ApiAddress address() {
            try {
                return ApiAddress.parse(api);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(mixee.commandLine(), "--api '" + api + "': " + e.getMessage());
            }
        }
    }
}
