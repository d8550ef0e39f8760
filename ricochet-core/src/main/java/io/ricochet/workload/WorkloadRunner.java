package io.ricochet.workload;

import io.ricochet.api.ApiException;
import io.ricochet.api.NodeStats;
import io.ricochet.client.RicochetClient;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one node's workload against its daemon: joins the groups and waits until the daemon is in all of them,
 * waits for the start file if one is given, sends at a fixed rate to groups drawn at random (seeded) for the given
 * time, keeps receiving while late losses are recovered, and returns what happened. Progress goes to
 * {@code log} every two seconds.
 */
public final class WorkloadRunner {
    private static final long NS_PER_S = 1_000_000_000L;
    private static final long PROGRESS_NS = 2 * NS_PER_S;
    private static final long POLL_MS = 200;
    private static final double RAMP_START = 0.1;

    /** The settle wait ends at most this many settle times after the last send. */
    private static final int SETTLE_CAP = 10;
    /** How often the settle wait looks at the delivery count. */
    private static final long SETTLE_POLL_NS = 100_000_000L;
    private final RicochetClient client;
    private final WorkloadSettings settings;
    private final PrintWriter log;
    private final DeliveryRecorder recorder;
    private final SortedMap<Integer, SeqnoRanges> sent = new TreeMap<>();
    private long sendErrors;
    private long nextProgressNs;

    /**
     * @param client   a connected client, used only by this runner
     * @param settings what to do
     * @param log      where progress lines go
     */
    public WorkloadRunner(RicochetClient client, WorkloadSettings settings, PrintWriter log) {
        this.client = client;
        this.settings = settings;
        this.log = log;
        this.recorder = new DeliveryRecorder(client.nodeId(), settings.tag(), WorkloadRunner::nowMicros);
    }

    /**
     * Runs the workload.
     *
     * @throws WorkloadException    if the daemon is the wrong node, cannot take the payload, or the joins or the
     *                              start file do not come in time
     * @throws InterruptedException if interrupted while waiting
     */
    public NodeResult run() throws InterruptedException {
        int node = client.nodeId();
        if (settings.expectedNode() != null && settings.expectedNode() != node) {
            throw new WorkloadException("--node " + settings.expectedNode() + ": the daemon at this address is node "
                    + node);
        }
        if (settings.payload() > client.maxMessage()) {
            throw new WorkloadException("--payload " + settings.payload() + ": above the daemon's maximum message of "
                    + client.maxMessage() + " bytes (its max-message)");
        }
        client.subscribe(recorder);
        settings.groups().forEach(client::join);
        awaitJoined();
        say("joined %d group(s) %s", settings.groups().size(), settings.groups());
        NodeStats before = client.stats();
        awaitStart();
        double sendSeconds = send();
        settle();
        NodeStats after = client.stats();
        return new NodeResult(node, settings.groups().stream().sorted().toList(), settings.asMap(), sendSeconds,
                sent, recorder.snapshot(), client.overflowedDeliveries() + client.droppedDeliveries(), sendErrors,
                before, after);
    }

    /** Waits until the daemon's stats list every group (if its stats list groups at all). */
    private void awaitJoined() throws InterruptedException {
        long deadline = System.nanoTime() + settings.joinTimeout().toNanos();
        while (true) {
            List<Integer> in = client.stats().groups();
            if (in == null) {
                return;
            }
            HashSet<Integer> missing = new HashSet<>(settings.groups());
            missing.removeAll(in);
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new WorkloadException("the daemon is still not in group(s) " + missing + " after "
                        + settings.joinTimeout().toSeconds() + " s: is the GMS reachable? (see the daemon's log)");
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }

    private void awaitStart() throws InterruptedException {
        if (settings.startFile() == null) {
            return;
        }
        say("waiting for %s", settings.startFile());
        long deadline = System.nanoTime() + settings.joinTimeout().toNanos();
        while (!Files.exists(settings.startFile())) {
            if (System.nanoTime() > deadline) {
                throw new WorkloadException("the start file " + settings.startFile() + " did not appear within "
                        + settings.joinTimeout().toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /** Sends on a fixed schedule (late sends catch up, none is skipped); returns the seconds it took. */
    private double send() {
        SplittableRandom random = new SplittableRandom(settings.seed());
        Map<Integer, Long> nextIndex = new TreeMap<>();
        List<Integer> groups = settings.groups();
        long startNs = System.nanoTime();
        long endNs = startNs + Math.round(settings.seconds() * NS_PER_S);
        nextProgressNs = startNs + PROGRESS_NS;
        say("sending %s msg/s of %d bytes for %s s%s", plain(settings.rate()), settings.payload(),
                plain(settings.seconds()), settings.rampSeconds() > 0 ? " (rising over the first "
                        + plain(settings.rampSeconds()) + " s)" : "");
        for (long dueNs = startNs; dueNs < endNs; dueNs += intervalNs(dueNs - startNs)) {
            long waitNs = dueNs - System.nanoTime();
            if (waitNs > 0) {
                LockSupport.parkNanos(waitNs);
            }
            int group = groups.get(random.nextInt(groups.size()));
            long index = nextIndex.merge(group, 1L, Long::sum) - 1;
            byte[] payload = PayloadCodec.encode(client.nodeId(), group, index, nowMicros(), settings.tag(),
                    settings.payload());
            try {
                sent.computeIfAbsent(group, g -> new SeqnoRanges()).add(client.send(group, payload));
            } catch (ApiException e) {
                if (sendErrors++ == 0) {
                    say("send to group %d refused: %s (%s); counting further refusals", group, e.getMessage(),
                            e.code());
                }
            }
            progress();
        }
        return (System.nanoTime() - startNs) / 1e9;
    }

    /** The gap after a message sent {@code elapsedNs} into sending: the rate ramps from a tenth to full. */
    private long intervalNs(long elapsedNs) {
        double rampNs = settings.rampSeconds() * NS_PER_S;
        double share = rampNs <= 0 || elapsedNs >= rampNs ? 1 : RAMP_START + (1 - RAMP_START) * elapsedNs / rampNs;
        return Math.max(1, Math.round(NS_PER_S / (settings.rate() * share)));
    }

    /** Keeps receiving until deliveries stop for the settle time ({@link SettleWait}). */
    private void settle() throws InterruptedException {
        say("sent %d; settling until no delivery for %s s (at most %s s) for late recoveries and other nodes' last "
                + "sends", sentCount(), plain(settings.settleSeconds()), plain(SETTLE_CAP * settings.settleSeconds()));
        new SettleWait(Math.round(settings.settleSeconds() * NS_PER_S), SETTLE_CAP, SETTLE_POLL_NS)
                .await(System::nanoTime, recorder::delivered, TimeUnit.NANOSECONDS::sleep, this::progress);
    }

    private void progress() {
        long now = System.nanoTime();
        if (now >= nextProgressNs) {
            nextProgressNs = now + PROGRESS_NS;
            say("progress: sent %d, delivered %d, lost %d, send errors %d", sentCount(), recorder.delivered(),
                    recorder.lostNotices(), sendErrors);
        }
    }

    private long sentCount() {
        return sent.values().stream().mapToLong(SeqnoRanges::count).sum();
    }

    private void say(String format, Object... args) {
        log.println("workload node " + client.nodeId() + ": " + String.format(Locale.ROOT, format, args));
        log.flush();
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    private static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }
}
