package io.ricochet.cli;

import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet send}: multicasts to a group through the daemon on this blade, either each line of standard input
 * (or a file) as one message, or generated messages at a fixed rate. Joins the group first, as the API requires.
 * Exits 1 if the daemon cannot be reached or refuses a message, 2 on bad flags.
 */
@Command(name = "send",
        sortOptions = false,
        description = {
            "Multicasts messages to a group through the local Ricochet daemon. Without --rate, sends each line of "
                + "standard input (or of --input) as one message. With --rate, sends --count generated messages "
                + "of --size bytes at that rate and prints the rate achieved.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "The local API this command uses, and its other commands: docs/api.md, Command line.",
        })
public final class SendCommand implements Callable<Integer> {
    private static final long NS_PER_S = 1_000_000_000L;

    @Spec
    private CommandSpec spec;

    @Mixin
    private StatsCommand.Endpoint endpoint;

    @Option(names = "--group", paramLabel = "G", required = true, description = "The group to send to.")
    private int group;

    @Option(names = "--rate", paramLabel = "PER_SECOND",
            description = "Send generated messages at this rate instead of reading lines.")
    private Double rate;

    @Option(names = "--count", paramLabel = "N", description = "Generated messages to send (default: 1000).")
    private Integer count;

    @Option(names = "--size", paramLabel = "BYTES", description = "Bytes per generated message (default: 64).")
    private Integer size;

    @Option(names = "--input", paramLabel = "FILE", description = "Read the lines from FILE, not standard input.")
    private Path input;

    @Override
    public Integer call() {
        checkFlags();
        return endpoint.run(ClientOptions.defaults().withClientName("ricochet-send").echo(false), client -> {
            client.subscribe(delivery -> { });
            client.join(group);
            return rate == null ? sendLines(client) : sendGenerated(client);
        });
    }

    private void checkFlags() {
        if (rate == null) {
            if (count != null || size != null) {
                throw bad("--count and --size generate messages: they need --rate");
            }
            if (input != null && !Files.isReadable(input)) {
                throw bad("--input " + input + ": no such readable file");
            }
            return;
        }
        if (input != null) {
            throw bad("--input reads lines: it cannot be combined with --rate");
        }
        if (!(rate > 0) || rate.isInfinite()) {
            throw bad("--rate " + Decimals.plain(rate) + ": must be a positive number");
        }
        count = count == null ? 1000 : count;
        size = size == null ? 64 : size;
        if (count < 1) {
            throw bad("--count " + count + ": must be at least 1");
        }
        if (size < 1) {
            throw bad("--size " + size + ": must be at least 1");
        }
    }

    private int sendLines(RicochetClient client) {
        long sent = 0;
        try (BufferedReader file = input == null ? null : Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
            BufferedReader lines = file != null ? file
                    : new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                byte[] payload = line.getBytes(StandardCharsets.UTF_8);
                if (payload.length > client.maxMessage()) {
                    return endpoint.fail("line " + (sent + 1) + ": " + payload.length + " bytes exceeds the "
                            + "maximum message of " + client.maxMessage() + "; " + sent + " message(s) sent");
                }
                client.send(group, payload);
                sent++;
            }
        } catch (IOException e) {
            return endpoint.fail("cannot read " + (input == null ? "standard input" : input) + ": " + e.getMessage());
        }
        out().println("sent " + sent + " message(s) to group " + group);
        out().flush();
        return 0;
    }

    private int sendGenerated(RicochetClient client) {
        if (size > client.maxMessage()) {
            throw bad("--size " + size + ": above the daemon's maximum message of " + client.maxMessage()
                    + " bytes (its max-message)");
        }
        long intervalNs = Math.max(1, Math.round(NS_PER_S / rate));
        long startNs = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long waitNs = startNs + i * intervalNs - System.nanoTime();
            if (waitNs > 0) {
                LockSupport.parkNanos(waitNs);
            }
            client.send(group, payload(i, size));
        }
        double seconds = (System.nanoTime() - startNs) / 1e9;
        out().printf(Locale.ROOT, "sent %d message(s) of %d bytes to group %d in %.3f s: %.1f msg/s (target %s)%n",
                count, size, group, seconds, count / Math.max(seconds, 1e-9), Decimals.plain(rate));
        out().flush();
        return 0;
    }

    /** Message {@code index} of a generated load: "ricochet INDEX " padded with dots, cut to {@code size}. */
    static byte[] payload(int index, int size) {
        byte[] text = ("ricochet " + index + " ").getBytes(StandardCharsets.US_ASCII);
        byte[] payload = new byte[size];
        Arrays.fill(payload, (byte) '.');
        System.arraycopy(text, 0, payload, 0, Math.min(size, text.length));
        return payload;
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
