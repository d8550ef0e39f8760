package io.ricochet.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * First deliveries per origin per wall-clock second (seconds since the epoch, the clock every namespace of a local
 * cluster shares), so a run's throughput can be followed over time and lined up with what happened to the cluster
 * meanwhile (a member stopped and continued, for the perturbation experiment). Bounded: at most {@link #MAX_SECONDS}
 * seconds after the first delivery and {@link #MAX_ORIGINS} origins; deliveries outside are only counted in
 * {@link #outside()}. Not thread-safe: the {@link DeliveryRecorder} that owns it serialises access.
 */
public final class DeliveryTimeline {
    /** Seconds kept after the first delivery: an hour. */
    public static final int MAX_SECONDS = 3600;
    /** Origins kept. */
    public static final int MAX_ORIGINS = 1024;

    private final SortedMap<Integer, long[]> perOrigin = new TreeMap<>();
    private long startSecond = -1;
    private long outside;

    /** One first delivery from {@code origin} received at {@code epochMicros}. */
    public void add(int origin, long epochMicros) {
        long second = Math.floorDiv(epochMicros, 1_000_000L);
        if (startSecond < 0) {
            startSecond = second;
        }
        long index = second - startSecond;
        long[] counts = perOrigin.get(origin);
        if (index < 0 || index >= MAX_SECONDS || counts == null && perOrigin.size() >= MAX_ORIGINS) {
            outside++;
            return;
        }
        if (counts == null || index >= counts.length) {   // grow: the map is written only then
            long[] grown = new long[(int) Math.min(MAX_SECONDS, Math.max(index + 1, counts == null ? 16
                    : counts.length * 2L))];
            if (counts != null) {
                System.arraycopy(counts, 0, grown, 0, counts.length);
            }
            counts = grown;
            perOrigin.put(origin, counts);
        }
        counts[(int) index]++;
    }

    /** The epoch second of the first delivery, or -1 if none. */
    public long startSecond() {
        return startSecond;
    }

    /** Deliveries of {@code origin} in epoch second {@code second}. */
    public long count(int origin, long second) {
        long[] counts = perOrigin.get(origin);
        long index = second - startSecond;
        return counts == null || index < 0 || index >= counts.length ? 0 : counts[(int) index];
    }

    /** The origins with deliveries, ascending. */
    public SortedMap<Integer, long[]> origins() {
        return Collections.unmodifiableSortedMap(perOrigin);
    }

    /** Deliveries not placed: before the first second, past {@link #MAX_SECONDS}, or of an origin past the bound. */
    public long outside() {
        return outside;
    }

    /** A copy. */
    public DeliveryTimeline copy() {
        DeliveryTimeline copy = new DeliveryTimeline();
        copy.startSecond = startSecond;
        copy.outside = outside;
        perOrigin.forEach((origin, counts) -> copy.perOrigin.put(origin, counts.clone()));
        return copy;
    }

    /** As JSON: {@code {"startSecond": S, "outside": N, "origins": {"ORIGIN": [count per second, ...]}}}. */
    public ObjectNode toJson() {
        ObjectNode json = WorkloadJson.MAPPER.createObjectNode();
        json.put("startSecond", startSecond);
        json.put("outside", outside);
        ObjectNode origins = json.putObject("origins");
        perOrigin.forEach((origin, counts) -> {
            int used = counts.length;
            while (used > 0 && counts[used - 1] == 0) {
                used--;
            }
            var array = origins.putArray(Integer.toString(origin));
            for (int i = 0; i < used; i++) {
                array.add(counts[i]);
            }
        });
        return json;
    }

    /**
     * Reads what {@link #toJson()} wrote; an absent node (a file written before timelines) gives an empty timeline.
     *
     * @throws IllegalArgumentException naming what is malformed
     */
    public static DeliveryTimeline fromJson(JsonNode json) {
        DeliveryTimeline timeline = new DeliveryTimeline();
        if (json == null || json.isNull()) {
            return timeline;
        }
        timeline.startSecond = WorkloadJson.longField(json, "startSecond");
        timeline.outside = WorkloadJson.longField(json, "outside");
        for (Map.Entry<String, JsonNode> origin : WorkloadJson.fields(WorkloadJson.field(json, "origins")).entrySet()) {
            JsonNode array = origin.getValue();
            if (!array.isArray() || array.size() > MAX_SECONDS || timeline.perOrigin.size() >= MAX_ORIGINS) {
                throw new IllegalArgumentException("deliveriesPerSecond: origin " + origin.getKey()
                        + " must be an array of at most " + MAX_SECONDS + " counts, and at most " + MAX_ORIGINS
                        + " origins");
            }
            long[] counts = new long[array.size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = array.get(i).asLong();
            }
            try {
                timeline.perOrigin.put(Integer.parseInt(origin.getKey()), counts);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("deliveriesPerSecond: origin '" + origin.getKey()
                        + "' is not a node id", e);
            }
        }
        return timeline;
    }
}
