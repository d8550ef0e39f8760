package io.ricochet.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.api.NodeStats;
import io.ricochet.client.Delivery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Builds {@link NodeResult}s for tests: what a node sent, and deliveries fed through a real recorder. */
final class Results {
    private final int node;
    private final List<Integer> groups;
    private final SortedMap<Integer, SeqnoRanges> sent = new TreeMap<>();
    private final DeliveryRecorder recorder;
    private final List<Delivery> deliveries = new ArrayList<>();
    private Map<String, Object> before = Map.of();
    private Map<String, Object> after = Map.of();

    private Results(int node, List<Integer> groups) {
        this.node = node;
        this.groups = groups;
        this.recorder = new DeliveryRecorder(node, 0L, () -> 1_000_000L);
    }

    static Results node(int node, Integer... groups) {
        return new Results(node, List.of(groups));
    }

    /** This node sent seqnos first..last to group. */
    Results sent(int group, long first, long last) {
        sent.computeIfAbsent(group, g -> new SeqnoRanges()).addRange(first, last);
        return this;
    }

    /** This node received seqnos first..last of (origin, group), with good payloads sent 500 us before receipt. */
    Results got(int origin, int group, long first, long last) {
        for (long s = first; s <= last; s++) {
            byte[] payload = PayloadCodec.encode(origin, group, s, 999_500L, 0L, 48);
            deliveries.add(Delivery.delivered(origin, group, s, payload));
        }
        return this;
    }

    Results gotCorrupt(int origin, int group, long seqno) {
        byte[] payload = PayloadCodec.encode(origin, group, seqno, 0, 0L, 48);
        payload[47] ^= 1;
        deliveries.add(Delivery.delivered(origin, group, seqno, payload));
        return this;
    }

    Results lost(int origin, int group, long seqno) {
        deliveries.add(Delivery.lost(origin, group, seqno));
        return this;
    }

    /** The daemon's stats before and after, written as {@code ricochet stats --json} prints them. */
    Results stats(Map<String, Object> statsBefore, Map<String, Object> statsAfter) {
        this.before = statsBefore;
        this.after = statsAfter;
        return this;
    }

    private static NodeStats parse(Map<String, Object> json) {
        return json.isEmpty() ? null : new ObjectMapper().convertValue(json, NodeStats.class);
    }

    NodeResult build() {
        deliveries.forEach(recorder);
        return new NodeResult(node, groups, Map.of("rate", 10.0), 1.5, sent, recorder.snapshot(), 0, 0,
                parse(before), parse(after));
    }
}
