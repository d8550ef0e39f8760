package io.ricochet.cli;

import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import io.ricochet.fountain.carousel.CarouselFile;
import io.ricochet.fountain.carousel.CarouselSender;
import io.ricochet.fountain.carousel.SymbolMessage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet fountain send FILE}: joins the group, then multicasts symbol messages of FILE, ids 0, 1, 2, ...,
 * at --rate symbols a second, until --count or --seconds (or for ever). Exits 1 if the daemon cannot be reached or
 * refuses a message, 2 on bad flags or an unreadable file.
 */
@Command(name = "send",
        sortOptions = false,
        description = {
            "Multicasts LT encoding symbols of FILE to a group through the local daemon, one symbol per message, "
                + "at --rate symbols a second, without end unless --count or --seconds says otherwise. Any "
                + "slightly more than k of them (k = file size / symbol size) rebuild the file.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "The carousel and its flags: docs/operations.md, 1.8 Bulk data; design: docs/design/fountain.md.",
        })
public final class FountainSendCommand implements Callable<Integer> {
    private static final long NS_PER_S = 1_000_000_000L;

    @Spec
    private CommandSpec spec;

    @Mixin
    private StatsCommand.Endpoint endpoint;

    @Parameters(paramLabel = "FILE", description = "The file to send.")
    private Path input;

    @Option(names = "--group", paramLabel = "G", required = true, description = "The group to send to.")
    private int group;

    @Option(names = "--rate", paramLabel = "PER_SECOND", required = true, description = "Symbols per second.")
    private double rate;

    @Option(names = "--count", paramLabel = "N", description = "Stop after N symbols (default: never).")
    private Long count;

    @Option(names = "--seconds", paramLabel = "S", description = "Stop after S seconds (default: never).")
    private Double seconds;

    @Option(names = "--symbol", paramLabel = "BYTES",
            description = "Bytes per symbol (default: the daemon's maximum payload less the "
                    + SymbolMessage.HEADER_LENGTH + "-byte header).")
    private Integer symbol;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed of the LT code (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--max-bytes", paramLabel = "BYTES", defaultValue = "" + FountainCommand.DEFAULT_MAX_BYTES,
            description = "Refuse a larger file (default: ${DEFAULT-VALUE}, at most 1073741824).")
    private long maxBytes;

    @Override
    public Integer call() {
        checkFlags();
        byte[] content = read();
        return endpoint.run(ClientOptions.defaults().withClientName("ricochet-fountain-send").echo(false),
                client -> {
                    client.subscribe(delivery -> { });
                    client.join(group);
                    return send(client, content);
                });
    }

    private void checkFlags() {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw bad("--rate " + Decimals.plain(rate) + ": must be a positive number of symbols per second");
        }
        if (count != null && count < 1) {
            throw bad("--count " + count + ": must be at least 1");
        }
        if (seconds != null && (!(seconds > 0) || seconds.isInfinite())) {
            throw bad("--seconds " + Decimals.plain(seconds) + ": must be a positive number");
        }
        if (symbol != null && (symbol < 1 || symbol > CarouselFile.MAX_SYMBOL_SIZE)) {
            throw bad("--symbol " + symbol + ": must be in 1.." + CarouselFile.MAX_SYMBOL_SIZE);
        }
        FountainCommand.checkMaxBytes(spec, maxBytes);
    }

    private byte[] read() {
        if (!Files.isRegularFile(input) || !Files.isReadable(input)) {
            throw bad(input + ": no such readable file");
        }
        try {
            long size = Files.size(input);
            if (size > maxBytes) {
                throw bad(input + ": " + size + " bytes, more than --max-bytes " + maxBytes);
            }
            if (size == 0) {
                throw bad(input + ": the file is empty; there is nothing to send");
            }
            return Files.readAllBytes(input);
        } catch (IOException e) {
            throw bad(input + ": cannot read it (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
    }

    private int send(RicochetClient client, byte[] content) {
        int largest = Math.min(CarouselFile.MAX_SYMBOL_SIZE, client.maxPayload() - SymbolMessage.HEADER_LENGTH);
        if (largest < 1 || symbol != null && symbol > largest) {
            throw bad("--symbol " + (symbol == null ? "" : symbol) + ": the daemon's payload of "
                    + client.maxPayload() + " bytes less the " + SymbolMessage.HEADER_LENGTH
                    + "-byte header leaves at most " + largest + " bytes a symbol");
        }
        CarouselSender sender;
        try {
            sender = new CarouselSender(content, symbol == null ? largest : symbol, FountainCommand.C,
                    FountainCommand.DELTA, seed, maxBytes);
        } catch (IllegalArgumentException e) {
            throw bad(input + ": " + e.getMessage());
        }
        CarouselFile file = sender.file();
        err().printf(Locale.ROOT, "sending %s: %d bytes, k = %d symbols of %d bytes, SHA-256 %s, to group %d%n",
                file.fileIdHex(), file.length(), file.k(), file.symbolSize(), file.sha256Hex(), group);
        err().flush();
        long intervalNs = Math.max(1, Math.round(NS_PER_S / rate));
        long startNs = System.nanoTime();
        long endNs = seconds == null ? Long.MAX_VALUE : startNs + Math.round(seconds * NS_PER_S);
        long id = 0;
        while ((count == null || id < count) && System.nanoTime() - endNs < 0) {
            long waitNs = startNs + id * intervalNs - System.nanoTime();
            if (waitNs > 0) {
                LockSupport.parkNanos(waitNs);
            }
            client.send(group, sender.message(id));
            id++;
        }
        double elapsed = (System.nanoTime() - startNs) / 1e9;
        out().printf(Locale.ROOT, "sent %d symbols of file %s (k = %d) to group %d in %.3f s: %.1f symbols/s%n",
                id, file.fileIdHex(), file.k(), group, elapsed, id / Math.max(elapsed, 1e-9));
        out().flush();
        return 0;
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
