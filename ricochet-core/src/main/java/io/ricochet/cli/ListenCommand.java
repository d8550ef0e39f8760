package io.ricochet.cli;

import io.ricochet.api.Ordering;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
 * {@code ricochet listen}: joins a group through the daemon on this blade and prints what arrives, one line per
 * delivery ({@code origin group id text}, the message id of docs/api.md), then a summary. Stops after --seconds,
 * after --expect deliveries, or when the daemon goes. Exits 1 if --expect was not met or the daemon cannot be
 * reached, 2 on bad flags.
 */
@Command(name = "listen",
        sortOptions = false,
        description = {
            "Joins a group through the local Ricochet daemon and prints each delivery as 'origin group id "
                + "payload': the message id (datagram seqno * 4096 + index), the payload as text when it is "
                + "printable UTF-8, else its length; 'FIRST..LAST (lost)' for a datagram the daemon gave up on, "
                + "which covers its message ids FIRST to LAST, and 'FIRST..LAST (dropped)' for messages the daemon "
                + "dropped because this listener read too slowly. Runs until --seconds pass, --expect deliveries "
                + "arrive, or Ctrl-C.",
            "",
        },
        footer = {
            "",
            "Exit status: 0 success, 1 the command failed, 2 bad input.",
            "The local API this command uses, and its other commands: docs/api.md, Command line.",
        })
public final class ListenCommand implements Callable<Integer> {
    private static final long NS_PER_S = 1_000_000_000L;

    @Spec
    private CommandSpec spec;

    @Mixin
    private StatsCommand.Endpoint endpoint;

    @Option(names = "--group", paramLabel = "G", required = true, description = "The group to listen to.")
    private int group;

    @Option(names = "--order", paramLabel = "unordered|fifo", converter = OrderConverter.class,
            description = "unordered (default): each message as soon as it is complete; fifo: each sender's messages "
                    + "in the order its daemon took them, a LOST in the place of the message it reports "
                    + "(docs/api.md, Ordering).")
    private Ordering order = Ordering.UNORDERED;

    @Option(names = "--count-only", description = "Print only the summary, not each delivery.")
    private boolean countOnly;

    @Option(names = "--seconds", paramLabel = "S", description = "Stop after S seconds.")
    private Double seconds;

    @Option(names = "--expect", paramLabel = "N",
            description = "Stop once N packets were delivered; exit 1 if fewer arrive before --seconds.")
    private Long expect;

    private long delivered;
    private long lost;

    @Override
    public Integer call() {
        if (seconds != null && (!(seconds > 0) || seconds.isInfinite())) {
            throw new ParameterException(spec.commandLine(), "--seconds " + Decimals.plain(seconds)
                    + ": must be a positive number");
        }
        if (expect != null && expect < 1) {
            throw new ParameterException(spec.commandLine(), "--expect " + expect + ": must be at least 1");
        }
        return endpoint.run("ricochet-listen", this::listen);
    }

    private int listen(RicochetClient client) throws InterruptedException {
        if (order != Ordering.UNORDERED) {
            client.order(group, order);
        }
        client.join(group);
        long startNs = System.nanoTime();
        long deadlineNs = seconds == null ? Long.MAX_VALUE : startNs + Math.round(seconds * NS_PER_S);
        try {
            while (expect == null || delivered < expect) {
                long remainingNs = seconds == null ? NS_PER_S : deadlineNs - System.nanoTime();
                if (remainingNs <= 0) {
                    break;
                }
                Delivery delivery = client.poll(remainingNs, TimeUnit.NANOSECONDS);
                if (delivery != null) {
                    print(delivery);
                }
            }
        } finally {
            summary(client, (System.nanoTime() - startNs) / 1e9);
        }
        if (expect != null && delivered < expect) {
            return endpoint.fail("expected " + expect + " deliveries, received " + delivered);
        }
        return 0;
    }

    private void print(Delivery delivery) {
        if (delivery.isLost()) {
            lost++;
        } else {
            delivered++;
        }
        if (!countOnly) {
            out().println(delivery.origin() + " " + delivery.group() + " " + delivery.seqno()
                    + (delivery.isLost() ? ".." + delivery.lastId() + " (" + delivery.kind().name().toLowerCase(
                            Locale.ROOT) + ")" : " " + text(delivery.payload())));
            out().flush();
        }
    }

    private void summary(RicochetClient client, double elapsedSeconds) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "received %d deliveries and %d loss notices from group %d in %.3f s", delivered, lost, group,
                elapsedSeconds));
        if (client.overflowedDeliveries() > 0) {
            line.append("; the daemon dropped ").append(client.overflowedDeliveries()).append(" (read too slowly)");
        }
        out().println(line);
        out().flush();
    }

    /** unordered|fifo, in any case, with a message that names the option. */
    static final class OrderConverter implements picocli.CommandLine.ITypeConverter<Ordering> {
        @Override
        public Ordering convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "unordered" -> Ordering.UNORDERED;
                case "fifo" -> Ordering.FIFO;
                default -> throw new picocli.CommandLine.TypeConversionException("must be unordered or fifo");
            };
        }
    }

    /** The payload as text if it is printable UTF-8, else {@code (N bytes)}. */
    static String text(byte[] payload) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(payload)).toString();
            if (!text.isEmpty() && text.codePoints().noneMatch(c -> Character.isISOControl(c) && c != '\t')) {
                return text;
            }
        } catch (CharacterCodingException e) {
            // not text: fall through to the length
        }
        return "(" + payload.length + " bytes)";
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }
}
