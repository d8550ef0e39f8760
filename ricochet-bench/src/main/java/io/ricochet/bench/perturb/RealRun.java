package io.ricochet.bench.perturb;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.workload.DeliveryTimeline;
import io.ricochet.workload.WorkloadJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One perturbation run on the local cluster, read back from its workload folder: every node's delivery timeline
 * ({@code node-K.json}, or the {@code timeline-K.json} the experiment keeps of it: {@code node} and
 * {@code deliveriesPerSecond}), the perturbation the script recorded ({@code perturb.json}:
 * protocol, node, fraction, period, start and end in epoch milliseconds) and the exactly-once verdict
 * ({@code summary.json}). Throughput counts messages of healthy senders, per healthy member and at the sleeper, in
 * whole seconds relative to the perturbation's start.
 *
 * @param protocol   the daemons' protocol
 * @param sleeper    the perturbed node's id
 * @param fraction   share of every period it was stopped
 * @param startMs    when the perturbation began (epoch ms)
 * @param endMs      when it ended (epoch ms)
 * @param timelines  node id to its delivery timeline
 * @param summary    the workload's summary.json (null if absent)
 */
record RealRun(String protocol, int sleeper, double fraction, long startMs, long endMs,
               Map<Integer, DeliveryTimeline> timelines, JsonNode summary) {

    /**
     * Reads a workload folder.
     *
     * @throws IllegalArgumentException saying which file is missing or malformed
     */
    static RealRun read(Path dir) {
        Path perturb = dir.resolve("perturb.json");
        if (!Files.isRegularFile(perturb)) {
            throw new IllegalArgumentException(dir + ": no perturb.json (written by "
                    + "scripts/experiments/cluster-perturb); is this a workload folder of that experiment?");
        }
        JsonNode p = WorkloadJson.read(perturb);
        Map<Integer, DeliveryTimeline> timelines = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                String name = file.getFileName().toString();
                if (name.matches("(node|timeline)-\\d+\\.json")) {
                    JsonNode node = WorkloadJson.read(file);
                    timelines.put(node.path("node").asInt(),
                            DeliveryTimeline.fromJson(node.get("deliveriesPerSecond")));
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(dir + ": cannot list it: " + e.getMessage(), e);
        }
        if (timelines.isEmpty()) {
            throw new IllegalArgumentException(dir + ": no node-K.json or timeline-K.json in it");
        }
        Path summary = dir.resolve("summary.json");
        return new RealRun(p.path("protocol").asText("?"), p.path("node").asInt(), p.path("fraction").asDouble(),
                p.path("startMs").asLong(), p.path("endMs").asLong(), timelines,
                Files.isRegularFile(summary) ? WorkloadJson.read(summary) : null);
    }

    /** The first and one past the last epoch second any node delivered in. */
    long[] seconds() {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (DeliveryTimeline t : timelines.values()) {
            for (long[] counts : t.origins().values()) {
                if (t.startSecond() >= 0 && counts.length > 0) {
                    first = Math.min(first, t.startSecond());
                    last = Math.max(last, t.startSecond() + counts.length);
                }
            }
        }
        return first > last ? new long[] {0, 0} : new long[] {first, last};
    }

    /** Messages of healthy senders delivered in epoch second {@code second}, per healthy member. */
    double healthyAt(long second) {
        long sum = 0;
        int members = 0;
        for (Map.Entry<Integer, DeliveryTimeline> node : timelines.entrySet()) {
            if (node.getKey() != sleeper) {
                sum += fromHealthy(node.getValue(), second);
                members++;
            }
        }
        return members == 0 ? 0 : sum / (double) members;
    }

    /** Messages of healthy senders the sleeper delivered in epoch second {@code second}. */
    double sleeperAt(long second) {
        DeliveryTimeline t = timelines.get(sleeper);
        return t == null ? 0 : fromHealthy(t, second);
    }

    private long fromHealthy(DeliveryTimeline t, long second) {
        long sum = 0;
        for (int origin : t.origins().keySet()) {
            if (origin != sleeper) {
                sum += t.count(origin, second);
            }
        }
        return sum;
    }

    /** The summary's verdict, or "no summary". */
    String verdict() {
        return summary == null ? "no summary" : summary.path("verdict").asText("?");
    }

    /** A total of the summary ({@code totals.NAME}), or -1 without a summary. */
    long total(String name) {
        return summary == null ? -1 : summary.path("totals").path(name).asLong(-1);
    }
}
