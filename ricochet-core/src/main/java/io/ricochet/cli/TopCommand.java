package io.ricochet.cli;

import io.ricochet.cli.StatsSource.Sample;
import io.ricochet.client.ApiAddress;
import io.ricochet.client.ClientOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet top}: a live view of one daemon or several, one row each, redrawn in place on a terminal and
 * printed as plain blocks otherwise. A daemon that does not answer gets a row saying why, and is asked again at the
 * next refresh; the view exits 1 only if no daemon answers the first one.
 */
@Command(name = "top",
        sortOptions = false,
        description = {
            "A live view of Ricochet daemons, one row per node, refreshed in place: data and repairs in and out per "
                + "second, losses, how they were recovered (LEC or NAK), LOST, recovery latency, receive-buffer use "
                + "and drops, the GMS link and the failures the GMS reported. q quits (Ctrl-C when standard input "
                + "is not a terminal). Exits 1 if no daemon answers at the start.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "Its columns: docs/operations.md, 1.5 What to watch; the counters: docs/api.md, Counters.",
        })
public final class TopCommand implements Callable<Integer> {
    /** Daemons watched at once, at most: one connection and one row each. */
    static final int MAX_DAEMONS = 256;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    @Spec
    private CommandSpec spec;

    @Option(names = "--api", paramLabel = "HOST:PORT|unix:PATH",
            description = "Daemons' local APIs, comma-separated (default: " + ApiAddress.DEFAULT + " when neither "
                    + "--api nor --api-unix is given).")
    private List<String> api = new ArrayList<>();

    @Option(names = "--api-unix", paramLabel = "PATH",
            description = "Daemons' Unix domain API sockets (their api-unix-socket), comma-separated.")
    private List<String> apiUnix = new ArrayList<>();

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1",
            converter = ValueConverters.Interval.class,
            description = "Seconds between refreshes, 0.1 to 3600 (default: ${DEFAULT-VALUE}).")
    private Duration interval;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
            description = "Stop after N refreshes (default: until q or Ctrl-C).")
    private int count;

    @Option(names = "--plain", description = "Print plain blocks, one per refresh, even on a terminal.")
    private boolean plain;

    private int exitCode;
    /** The samples of the last refresh (empty before the first). */
    private List<Sample> previous = List.of();

    @Override
    public Integer call() throws InterruptedException {
        List<ApiAddress> addresses = addresses();
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "--count " + count + ": must be 0 (no limit) or more");
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean ansi = !plain && Terminal.isTerminal(Terminal.STDOUT);
        LiveSession.Keys keys = !Terminal.isTerminal(Terminal.STDIN) ? LiveSession.Keys.NONE
                : ansi ? LiveSession.Keys.SINGLE : LiveSession.Keys.LINES;
        ClientOptions options = ClientOptions.defaults().withClientName("ricochet-top")
                .withRequestTimeout(interval.compareTo(Duration.ofSeconds(1)) > 0 ? interval : Duration.ofSeconds(1));
        List<StatsSource> sources = addresses.stream()
                .map(a -> new StatsSource(a, options, System::nanoTime)).toList();
        try (LiveSession session = new LiveSession(keys, ansi, out, System.in)) {
            session.run(interval, count, () -> {
                List<Sample> now = sources.stream().map(StatsSource::poll).toList();
                if (previous.isEmpty() && now.stream().noneMatch(Sample::ok)) {
                    exitCode = fail("no daemon answered: " + now.stream().map(s -> s.address() + ": " + s.error())
                            .collect(Collectors.joining("; ")));
                    return false;
                }
                String screen = TopView.render(title(now), previous, now);
                out.print(ansi ? Terminal.redraw(screen) : screen + "\n");
                out.flush();
                previous = now;
                return !out.checkError();
            });
        } finally {
            sources.forEach(StatsSource::close);
        }
        return exitCode;
    }

    private String title(List<Sample> now) {
        long up = now.stream().filter(Sample::ok).count();
        return String.format(java.util.Locale.ROOT, "ricochet top  %s  %d of %d daemon(s) answering, every %s s%s",
                LocalTime.now().format(CLOCK), up, now.size(), Decimals.plain(interval.toMillis() / 1000.0),
                count == 0 ? " (q or Ctrl-C quits)" : "");
    }

    private int fail(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": " + message);
        err.flush();
        return 1;
    }

    /** The daemons named, in order, each once; the default daemon if none is. */
    private List<ApiAddress> addresses() {
        Set<ApiAddress> addresses = new LinkedHashSet<>();
        // Split here, not by picocli: it drops empty items, and "a,,b" is a mistake worth saying.
        for (String list : api) {
            for (String text : list.split(",", -1)) {
                addresses.add(parse("--api", text, text));
            }
        }
        for (String list : apiUnix) {
            for (String path : list.split(",", -1)) {
                addresses.add(parse("--api-unix", path, ApiAddress.UNIX_PREFIX + path));
            }
        }
        if (addresses.size() > MAX_DAEMONS) {
            throw new ParameterException(spec.commandLine(), addresses.size() + " daemons given; top watches at most "
                    + MAX_DAEMONS + " at once");
        }
        if (addresses.isEmpty()) {
            addresses.add(ApiAddress.parse(ApiAddress.DEFAULT));
        }
        return List.copyOf(addresses);
    }

    /** {@code text} as an address; {@code given} is what the user wrote, for the message if it is refused. */
    private ApiAddress parse(String option, String given, String text) {
        if (given.isBlank()) {
            throw new ParameterException(spec.commandLine(), option + ": an empty address in the list; give "
                    + (option.equals("--api") ? "HOST:PORT or unix:PATH" : "absolute socket paths")
                    + ", separated by commas");
        }
        try {
            return ApiAddress.parse(text.strip());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + " '" + given + "': " + e.getMessage());
        }
    }
}
