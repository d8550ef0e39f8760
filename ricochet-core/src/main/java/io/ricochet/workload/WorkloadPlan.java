package io.ricochet.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Who is in which group: the workload of the paper's section 5, {@code n} nodes each in {@code d} of {@code g}
 * groups, so groups have about {@code s = n·d/g} members. Nodes are numbered 1..n and groups 1..g. Each node, in a
 * seeded random order, takes the {@code d} groups that have the fewest members so far (ties broken at random), so
 * group sizes differ by at most one and every group overlaps others whenever {@code d > 1}. The same arguments
 * always give the same plan.
 */
public final class WorkloadPlan {
    private final int totalGroups;
    private final int degree;
    private final long seed;
    private final SortedMap<Integer, List<Integer>> groupsOf;

    private WorkloadPlan(int totalGroups, int degree, long seed, SortedMap<Integer, List<Integer>> groupsOf) {
        this.totalGroups = totalGroups;
        this.degree = degree;
        this.seed = seed;
        this.groupsOf = groupsOf;
    }

    /**
     * Plans {@code nodes} nodes in {@code degree} of {@code totalGroups} groups each.
     *
     * @throws IllegalArgumentException if a count is out of range, or a node would be in more groups than exist
     */
    public static WorkloadPlan generate(int nodes, int totalGroups, int degree, long seed) {
        if (nodes < 1 || totalGroups < 1 || degree < 1) {
            throw new IllegalArgumentException("nodes, groups and degree must be at least 1 (got " + nodes + ", "
                    + totalGroups + ", " + degree + ")");
        }
        if (degree > totalGroups) {
            throw new IllegalArgumentException("degree " + degree + " exceeds the " + totalGroups
                    + " groups: a node cannot join more groups than exist");
        }
        SplittableRandom random = new SplittableRandom(seed);
        List<Integer> order = shuffled(1, nodes, random);
        int[] size = new int[totalGroups + 1];
        SortedMap<Integer, List<Integer>> groupsOf = new TreeMap<>();
        for (int node : order) {
            List<Integer> candidates = shuffled(1, totalGroups, random);
            candidates.sort(Comparator.comparingInt(g -> size[g]));
            List<Integer> chosen = new ArrayList<>(candidates.subList(0, degree));
            chosen.forEach(g -> size[g]++);
            Collections.sort(chosen);
            groupsOf.put(node, List.copyOf(chosen));
        }
        return new WorkloadPlan(totalGroups, degree, seed, groupsOf);
    }

    /** A plan with the given groups per node (read back from a file). */
    public static WorkloadPlan of(int totalGroups, int degree, long seed, Map<Integer, List<Integer>> groupsOf) {
        SortedMap<Integer, List<Integer>> copy = new TreeMap<>();
        groupsOf.forEach((node, groups) -> copy.put(node, groups.stream().sorted().toList()));
        return new WorkloadPlan(totalGroups, degree, seed, copy);
    }

    private static List<Integer> shuffled(int from, int to, SplittableRandom random) {
        List<Integer> list = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            list.add(i);
        }
        for (int i = list.size() - 1; i > 0; i--) {
            Collections.swap(list, i, random.nextInt(i + 1));
        }
        return list;
    }

    public int totalGroups() {
        return totalGroups;
    }

    public int degree() {
        return degree;
    }

    public long seed() {
        return seed;
    }

    /** Node to the groups it joins, ascending. */
    public SortedMap<Integer, List<Integer>> groupsOf() {
        return Collections.unmodifiableSortedMap(groupsOf);
    }

    /** Group to its members, for every group with at least one member. */
    public SortedMap<Integer, SortedSet<Integer>> members() {
        return membersOf(groupsOf);
    }

    /** Inverts node -> groups into group -> members. */
    public static SortedMap<Integer, SortedSet<Integer>> membersOf(Map<Integer, ? extends Iterable<Integer>> groupsOf) {
        SortedMap<Integer, SortedSet<Integer>> members = new TreeMap<>();
        groupsOf.forEach((node, groups) -> groups.forEach(g -> members.computeIfAbsent(g, k -> new TreeSet<>())
                .add(node)));
        return members;
    }

    /** Groups of 1..totalGroups with fewer than two members: nothing in them can be checked. */
    public List<Integer> degenerateGroups() {
        return groupsSized(0, 1);
    }

    /**
     * Groups of 1..totalGroups with exactly two members, where LEC cannot help: a receiver sends its repairs to the
     * group's other receivers, and a sender's one receiver has none, so only NAKs recover what it loses. Groups need
     * three members or more for LEC.
     */
    public List<Integer> groupsWithoutLec() {
        return groupsSized(2, 2);
    }

    /** Groups of 1..totalGroups with {@code min}..{@code max} members. */
    private List<Integer> groupsSized(int min, int max) {
        SortedMap<Integer, SortedSet<Integer>> members = members();
        List<Integer> out = new ArrayList<>();
        for (int g = 1; g <= totalGroups; g++) {
            int size = members.getOrDefault(g, Collections.emptySortedSet()).size();
            if (size >= min && size <= max) {
                out.add(g);
            }
        }
        return out;
    }

    /** The plan as JSON: its arguments, node -> groups and group -> members. */
    public ObjectNode toJson() {
        ObjectNode json = WorkloadJson.MAPPER.createObjectNode();
        json.put("nodes", groupsOf.size()).put("groups", totalGroups).put("degree", degree).put("seed", seed);
        ObjectNode nodes = json.putObject("groupsOf");
        groupsOf.forEach((node, groups) -> groups.forEach(nodes.putArray(String.valueOf(node))::add));
        ObjectNode members = json.putObject("members");
        members().forEach((group, nodeSet) -> nodeSet.forEach(members.putArray(String.valueOf(group))::add));
        return json;
    }

    /**
     * Reads what {@link #toJson()} wrote (only {@code groupsOf} and the arguments are read; members follow).
     *
     * @throws IllegalArgumentException naming what is missing or malformed
     */
    public static WorkloadPlan fromJson(JsonNode json) {
        JsonNode nodes = WorkloadJson.field(json, "groupsOf");
        Map<Integer, List<Integer>> groupsOf = new TreeMap<>();
        WorkloadJson.fields(nodes).forEach((node, groups) -> {
            try {
                groupsOf.put(Integer.parseInt(node), WorkloadJson.intList(nodes, node));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'groupsOf' has key '" + node + "', not a node id");
            }
        });
        return of(WorkloadJson.intField(json, "groups"), WorkloadJson.intField(json, "degree"),
                WorkloadJson.longField(json, "seed"), groupsOf);
    }
}
