package io.ricochet.fd;

import io.ricochet.control.message.WatchList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The targets of a detector whose daemons come from the GMS ({@code --rack} or {@code --standby}): its static
 * targets (from {@code --members}, {@code --watch-detectors} and {@code --chain-next}), which no list removes, and the
 * daemons of the latest {@link WatchList}. At most {@link WatchList#MAX_TARGETS} come from a list, so a detector has
 * at most that many targets beside its static ones.
 *
 * <p>A listed daemon that could not be told apart from another target is left out, and said so
 * ({@link Merge#problems()}): one whose node id is this detector's wire id, or a watched detector's (a detector's wire
 * id is the hash of its name), or that registered no heartbeat port. A listed daemon that is also in
 * {@code --members} is watched once, at its {@code --members} address. Pure: no I/O, no clock.
 */
final class WatchedTargets {
    private final int ownWireId;
    private final Map<Integer, Target> statics = new LinkedHashMap<>();

    /**
     * @param ownWireId this detector's wire id
     * @param statics its static targets, already checked against each other ({@link TargetList})
     */
    WatchedTargets(int ownWireId, List<Target> statics) {
        this.ownWireId = ownWireId;
        statics.forEach(t -> this.statics.put(t.wireId(), t));
    }

    /** The static targets merged with the daemons of {@code list}. */
    Merge merge(WatchList list) {
        Map<Integer, Target> targets = new LinkedHashMap<>(statics);
        SortedSet<Integer> racks = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        int listed = 0;
        for (WatchList.Target t : list.targets()) {
            Target given = statics.get(t.nodeId());
            String refused = null;
            if (t.nodeId() == ownWireId) {
                refused = "its node id is this detector's wire id (the hash of its --id): rename the detector";
            } else if (given != null && given.kind() == Target.Kind.DETECTOR) {
                refused = "its node id is the wire id of " + given.describe()
                        + " (a detector's wire id is the hash of its name): rename the detector";
            } else if (t.heartbeat().getPort() == 0) {
                refused = "it registered no heartbeat port";
            }
            if (refused != null) {
                problems.add("node " + t.nodeId() + " of rack " + t.rack() + " (" + Endpoints.format(t.heartbeat())
                        + ") listed by the GMS is not watched: " + refused);
                continue;
            }
            if (given == null) {
                targets.put(t.nodeId(), Target.daemon(t.nodeId(), t.heartbeat()));
            } else if (!given.address().equals(t.heartbeat())) {
                problems.add("node " + t.nodeId() + " listed by the GMS at " + Endpoints.format(t.heartbeat())
                        + " is watched at its --members address " + Endpoints.format(given.address()));
            }
            listed++;
            racks.add(t.rack());
        }
        return new Merge(targets, listed, racks, problems);
    }

    /**
     * The targets a watch list gives, with what the log line says of them.
     *
     * @param targets every target, by wire id: the static ones and the listed daemons
     * @param listed how many of the list's daemons are watched
     * @param racks the racks of those
     * @param problems listed daemons left out or watched elsewhere, one line each
     */
    record Merge(Map<Integer, Target> targets, int listed, SortedSet<Integer> racks, List<String> problems) {
        Merge {
            targets = Collections.unmodifiableMap(new LinkedHashMap<>(targets));
            racks = Collections.unmodifiableSortedSet(new TreeSet<>(racks));
            problems = List.copyOf(problems);
        }

        /** The daemons among the targets (the rest are detectors). */
        long daemons() {
            return targets.values().stream().filter(t -> t.kind() == Target.Kind.DAEMON).count();
        }

        /** {@code watching 8 daemons (4 from the GMS: racks 1, 2)}. */
        String describe() {
            String from = listed + " from the GMS";
            if (!racks.isEmpty()) {
                from += ": " + (racks.size() == 1 ? "rack " : "racks ")
                        + racks.stream().map(String::valueOf).collect(Collectors.joining(", "));
            }
            long daemons = daemons();
            return "watching " + daemons + (daemons == 1 ? " daemon (" : " daemons (") + from + ")";
        }
    }
}
