package io.ricochet.gms;

import io.ricochet.control.message.WatchList;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which failure detector watches which daemons (paper, 4.2.4: rack-level detectors), as a partition's replicated
 * state with no I/O. Daemons register with a rack and a heartbeat address; detectors with a rack of their own, or as
 * standbys (rack 0); the top-level detector reports rack detectors failed and recovered. Every rack with daemons is
 * assigned, deterministically:
 * <ol>
 *   <li>to its own live detectors;</li>
 *   <li>else (its detectors failed, or it has none) to a live standby: the orphaned racks in ascending order go
 *       round-robin over the live standbys in ascending id order;</li>
 *   <li>else to the live detectors of the next rack above it that has one (wrapping around): its neighbour;</li>
 *   <li>else to nobody (no detector is alive).</li>
 * </ol>
 * A detector's {@link WatchList} is every daemon of the racks assigned to it. Kept by GMS partition 0 (detectors
 * send WATCH there); every partition holds the daemons' racks, from their REGISTERs.
 */
final class RackAssignments {
    /** A daemon's rack and where it answers heartbeats. */
    record NodeRack(int rack, InetSocketAddress heartbeat) {
    }

    private final SortedMap<Integer, NodeRack> nodes = new TreeMap<>();
    private final SortedMap<String, Integer> detectors = new TreeMap<>();
    private final SortedSet<String> failed = new TreeSet<>();

    /** Records a daemon's rack (0: none, so no detector is told of it); returns whether anything changed. */
    boolean register(int node, int rack, InetSocketAddress heartbeat) {
        NodeRack now = rack == 0 || heartbeat.getPort() == 0 ? null : new NodeRack(rack, heartbeat);
        NodeRack before = now == null ? nodes.remove(node) : nodes.put(node, now);
        return !java.util.Objects.equals(before, now);
    }

    /** Records a detector and its rack (0: a standby); returns whether anything changed. */
    boolean watch(String detector, int rack) {
        Integer before = detectors.put(detector, rack);
        return before == null || before != rack;
    }

    /** The top-level detector reported {@code detector} failed; returns whether anything changed. */
    boolean fail(String detector) {
        return failed.add(detector);
    }

    /** The top-level detector reported {@code detector} recovered; returns whether anything changed. */
    boolean recover(String detector) {
        return failed.remove(detector);
    }

    /** Every registered detector's list now, by detector id. */
    SortedMap<String, WatchList> lists() {
        SortedMap<Integer, List<String>> assigned = assign();
        SortedMap<String, List<WatchList.Target>> targets = new TreeMap<>();
        detectors.keySet().forEach(d -> targets.put(d, new ArrayList<>()));
        nodes.forEach((node, nr) -> {
            for (String d : assigned.getOrDefault(nr.rack(), List.of())) {
                List<WatchList.Target> list = targets.get(d);
                if (list.size() < WatchList.MAX_TARGETS) {
                    list.add(new WatchList.Target(node, nr.rack(), nr.heartbeat()));
                }
            }
        });
        SortedMap<String, WatchList> lists = new TreeMap<>();
        targets.forEach((d, list) -> lists.put(d, new WatchList(list)));
        return lists;
    }

    /** Rack -> the detectors watching it, for every rack with daemons (an empty list: nobody). */
    SortedMap<Integer, List<String>> assign() {
        SortedMap<Integer, List<String>> live = new TreeMap<>();
        List<String> standbys = new ArrayList<>();
        detectors.forEach((d, rack) -> {
            if (!failed.contains(d)) {
                if (rack == 0) {
                    standbys.add(d);
                } else {
                    live.computeIfAbsent(rack, r -> new ArrayList<>()).add(d);
                }
            }
        });
        SortedSet<Integer> racks = new TreeSet<>();
        nodes.values().forEach(nr -> racks.add(nr.rack()));
        SortedMap<Integer, List<String>> assigned = new TreeMap<>();
        int orphan = 0;
        for (int rack : racks) {
            List<String> own = live.get(rack);
            if (own != null) {
                assigned.put(rack, own);
            } else if (!standbys.isEmpty()) {
                assigned.put(rack, List.of(standbys.get(orphan++ % standbys.size())));
            } else {
                assigned.put(rack, neighbour(live, rack));
            }
        }
        return assigned;
    }

    private static List<String> neighbour(SortedMap<Integer, List<String>> live, int rack) {
        if (live.isEmpty()) {
            return List.of();
        }
        SortedMap<Integer, List<String>> above = live.tailMap(rack + 1);
        return above.isEmpty() ? live.get(live.firstKey()) : above.get(above.firstKey());
    }

    SortedMap<Integer, NodeRack> nodes() {
        return Collections.unmodifiableSortedMap(nodes);
    }

    SortedMap<String, Integer> detectors() {
        return Collections.unmodifiableSortedMap(detectors);
    }

    SortedSet<String> failedDetectors() {
        return Collections.unmodifiableSortedSet(failed);
    }

    /** Whether {@code detector} is reported failed. */
    boolean isFailed(String detector) {
        return failed.contains(detector);
    }

    /** For snapshots: restores the state as {@link #nodes}, {@link #detectors} and {@link #failedDetectors} were. */
    void restore(Map<Integer, NodeRack> nodeRacks, Map<String, Integer> detectorRacks, List<String> failedIds) {
        nodes.putAll(nodeRacks);
        detectors.putAll(detectorRacks);
        failed.addAll(failedIds);
    }
}
