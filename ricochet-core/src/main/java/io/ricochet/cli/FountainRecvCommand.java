package io.ricochet.cli;

import io.ricochet.client.ClientOptions;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import io.ricochet.fountain.carousel.CarouselFile;
import io.ricochet.fountain.carousel.CarouselReceiver;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ricochet fountain recv}: joins the group and takes the symbols of one file (--file-id, or the first seen)
 * until it can decode it, checks its SHA-256 and writes it to --out atomically (a temporary file in the same
 * directory, then a rename). Exits 0 once written; 1 on a hash mismatch, after --seconds without the file, or when
 * the daemon cannot be reached; 2 on bad flags.
 */
@Command(name = "recv",
        sortOptions = false,
        description = {
            "Receives a file a 'fountain send' is multicasting to a group, from whenever it starts: stops once it "
                + "has enough symbols to decode the file, checks the SHA-256 and writes the file to --out. Shows "
                + "its progress on standard error.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "The carousel and its flags: docs/operations.md, 1.8 Bulk data; design: docs/design/fountain.md.",
        })
public final class FountainRecvCommand implements Callable<Integer> {
    private static final long NS_PER_S = 1_000_000_000L;

    @Spec
    private CommandSpec spec;

    @Mixin
    private StatsCommand.Endpoint endpoint;

    @Option(names = "--group", paramLabel = "G", required = true, description = "The group to listen to.")
    private int group;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the file.")
    private Path out;

    @Option(names = "--file-id", paramLabel = "HEX",
            description = "Take this file (16 hex digits, as 'send' prints), not the first one seen.")
    private String fileId;

    @Option(names = "--max-bytes", paramLabel = "BYTES", defaultValue = "" + FountainCommand.DEFAULT_MAX_BYTES,
            description = "Ignore symbols of a larger file (default: ${DEFAULT-VALUE}, at most 1073741824; the "
                    + "receiver holds about three times the file in memory).")
    private long maxBytes;

    @Option(names = "--seconds", paramLabel = "S", description = "Give up after S seconds (default: never).")
    private Double seconds;

    @Override
    public Integer call() {
        FountainCommand.checkMaxBytes(spec, maxBytes);
        if (seconds != null && (!(seconds > 0) || seconds.isInfinite())) {
            throw bad("--seconds " + Decimals.plain(seconds) + ": must be a positive number");
        }
        Path dir = out.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw bad("--out " + out + ": its directory does not exist or is not writable");
        }
        if (Files.isDirectory(out)) {
            throw bad("--out " + out + ": is a directory; name the file to write");
        }
        CarouselReceiver receiver = new CarouselReceiver(maxBytes, parseFileId());
        return endpoint.run(ClientOptions.defaults().withClientName("ricochet-fountain-recv"),
                client -> receive(client, receiver, dir));
    }

    private Long parseFileId() {
        if (fileId == null) {
            return null;
        }
        if (!fileId.matches("[0-9a-fA-F]{16}")) {
            throw bad("--file-id '" + fileId + "': must be 16 hex digits, as 'fountain send' prints");
        }
        return HexFormat.fromHexDigitsToLong(fileId);
    }

    private int receive(RicochetClient client, CarouselReceiver receiver, Path dir) throws InterruptedException {
        client.join(group);
        long startNs = System.nanoTime();
        long deadlineNs = seconds == null ? Long.MAX_VALUE : startNs + Math.round(seconds * NS_PER_S);
        FountainProgress progress = new FountainProgress(err(), System.console() != null, System::nanoTime);
        CarouselReceiver.Outcome outcome = CarouselReceiver.Outcome.TAKEN;
        try {
            while (outcome != CarouselReceiver.Outcome.COMPLETE && outcome != CarouselReceiver.Outcome.CORRUPT) {
                long remainingNs = seconds == null ? NS_PER_S : deadlineNs - System.nanoTime();
                if (remainingNs <= 0) {
                    return endpoint.fail("no file decoded in " + Decimals.plain(seconds) + " s: " + state(receiver));
                }
                Delivery delivery = client.poll(remainingNs, TimeUnit.NANOSECONDS);
                if (delivery != null && !delivery.isLost()) {
                    outcome = receiver.offer(delivery.payload());
                }
                CarouselFile file = receiver.file();
                progress.at(receiver.known(), file == null ? 0 : file.k(), receiver.offered());
            }
        } finally {
            progress.finish();
        }
        CarouselFile file = receiver.file();
        if (outcome == CarouselReceiver.Outcome.CORRUPT) {
            return endpoint.fail("file " + file.fileIdHex() + " decoded but its SHA-256 is not " + file.sha256Hex()
                    + ": symbols were altered on the way; nothing written");
        }
        try {
            write(receiver.content(), dir);
        } catch (IOException e) {
            return endpoint.fail("cannot write " + out + ": " + e.getMessage());
        }
        double elapsed = (System.nanoTime() - startNs) / 1e9;
        stdout().printf(Locale.ROOT, "received file %s: %d bytes, SHA-256 %s verified, from %d messages for k = %d "
                        + "symbols in %.3f s, written to %s%n", file.fileIdHex(), file.length(), file.sha256Hex(),
                receiver.offered(), file.k(), elapsed, out);
        stdout().flush();
        return 0;
    }

    private static String state(CarouselReceiver receiver) {
        CarouselFile file = receiver.file();
        String known = file == null ? "no symbol of a file yet" : receiver.known() + " of " + file.k()
                + " symbols known";
        return known + ", " + receiver.malformed() + " malformed message(s)"
                + (receiver.lastProblem() == null ? "" : " (last: " + receiver.lastProblem() + ")")
                + ", " + receiver.otherFile() + " of other files";
    }

    /** Writes to a temporary file beside --out, then renames it over --out: no reader sees half a file. */
    private void write(byte[] content, Path dir) throws IOException {
        Path temp = Files.createTempFile(dir, "." + out.getFileName() + ".", ".part");
        try {
            Files.write(temp, content);
            Files.move(temp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private PrintWriter stdout() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
