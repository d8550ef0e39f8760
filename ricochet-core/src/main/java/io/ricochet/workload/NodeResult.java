package io.ricochet.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.api.NodeStats;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one node's workload did: the groups it joined, the seqnos it sent per group, what it received, and its
 * daemon's stats before sending and after settling. Written by {@code ricochet workload} as one JSON file per node
 * and read back by the summary.
 *
 * @param node           the node id (from the daemon's HELLO)
 * @param groups         the groups joined, ascending
 * @param settings       the workload's arguments (rate, seconds, payload, seed, settle seconds), for the record
 * @param sendSeconds    how long sending actually took
 * @param sent           group to the seqnos this node's daemon assigned to its sends
 * @param deliveries     what was received
 * @param overflowed     deliveries the daemon dropped for this client (OVERFLOW frames); each one is missing
 * @param sendErrors     sends the daemon refused
 * @param statsBefore    the daemon's stats after joining, before sending
 * @param statsAfter     the daemon's stats after settling
 */
public record NodeResult(int node, List<Integer> groups, Map<String, Object> settings, double sendSeconds,
                         SortedMap<Integer, SeqnoRanges> sent, DeliveryRecorder.Snapshot deliveries, long overflowed,
                         long sendErrors, NodeStats statsBefore, NodeStats statsAfter) {

    public NodeResult {
        groups = List.copyOf(groups);
        settings = Map.copyOf(settings);
        sent = new TreeMap<>(sent);
    }

    /** Packets sent, all groups. */
    public long sentCount() {
        return sent.values().stream().mapToLong(SeqnoRanges::count).sum();
    }

    /** The result as JSON (the file {@code ricochet workload --out} writes). */
    public ObjectNode toJson() {
        ObjectNode json = WorkloadJson.MAPPER.createObjectNode();
        json.put("node", node);
        groups.forEach(json.putArray("groups")::add);
        json.set("settings", WorkloadJson.MAPPER.valueToTree(new TreeMap<>(settings)));
        json.put("sendSeconds", sendSeconds);
        var sentArray = json.putArray("sent");
        sent.forEach((group, seqnos) -> sentArray.addObject().put("group", group).put("count", seqnos.count())
                .set("seqnos", WorkloadJson.ranges(seqnos)));
        json.set("received", WorkloadJson.streams(deliveries.received()));
        json.set("lost", WorkloadJson.streams(deliveries.lost()));
        json.set("duplicates", WorkloadJson.violations(deliveries.duplicates()));
        json.set("corrupt", WorkloadJson.violations(deliveries.corrupt()));
        json.put("selfDeliveries", deliveries.selfDeliveries());
        json.put("overflowed", overflowed);
        json.put("sendErrors", sendErrors);
        json.set("latencyMs", WorkloadJson.MAPPER.valueToTree(deliveries.latency().summary()));
        json.put("latencyHistogram", deliveries.latency().encode());
        json.set("deliveriesPerSecond", deliveries.timeline().toJson());
        json.set("statsBefore", WorkloadJson.MAPPER.valueToTree(statsBefore));
        json.set("statsAfter", WorkloadJson.MAPPER.valueToTree(statsAfter));
        return json;
    }

    /**
     * Reads what {@link #toJson()} wrote.
     *
     * @throws IllegalArgumentException naming the first missing or malformed field
     */
    public static NodeResult fromJson(JsonNode json) {
        SortedMap<Integer, SeqnoRanges> sent = new TreeMap<>();
        for (JsonNode item : WorkloadJson.array(json, "sent")) {
            sent.put(WorkloadJson.intField(item, "group"), WorkloadJson.ranges(item.get("seqnos")));
        }
        JsonNode histogram = json.get("latencyHistogram");
        DeliveryRecorder.Snapshot deliveries = new DeliveryRecorder.Snapshot(
                WorkloadJson.streams(json, "received"), WorkloadJson.streams(json, "lost"),
                WorkloadJson.violations(json, "duplicates"), WorkloadJson.violations(json, "corrupt"),
                WorkloadJson.longField(json, "selfDeliveries"),
                histogram == null ? new LatencyHistogram() : LatencyHistogram.decode(histogram.asText()),
                DeliveryTimeline.fromJson(json.get("deliveriesPerSecond")));
        return new NodeResult(WorkloadJson.intField(json, "node"), WorkloadJson.intList(json, "groups"),
                WorkloadJson.map(json.get("settings")), json.path("sendSeconds").asDouble(), sent, deliveries,
                WorkloadJson.longField(json, "overflowed"), WorkloadJson.longField(json, "sendErrors"),
                WorkloadJson.stats(json.get("statsBefore")), WorkloadJson.stats(json.get("statsAfter")));
    }
}
