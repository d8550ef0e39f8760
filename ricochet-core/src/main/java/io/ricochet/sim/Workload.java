package io.ricochet.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The grouping pattern of the paper's section 5: n nodes, each joins d of g groups picked at random, with
 * n * d = g * s so the mean group size is s. Every node is a sender; its send rate is set so that, on average,
 * {@code ratePerNode} data packets per second arrive at each node in total.
 *
 * @param groupsOfNode    node id -> its groups, ascending
 * @param membersOfGroup  group id -> its members, ascending
 * @param sendGroupsOfNode node id -> its groups that have at least one other member (where its sends go)
 * @param sendRatePerNode data packets per second each node multicasts
 */
public record Workload(int[][] groupsOfNode, int[][] membersOfGroup, int[][] sendGroupsOfNode,
                       double sendRatePerNode) {

    /** Number of groups g = round(n * d / s). */
    public static int groupCount(int nodes, int degree, int groupSize) {
        return (int) Math.max(degree, Math.round((double) nodes * degree / groupSize));
    }

    public static Workload generate(int nodes, int degree, int groupSize, double ratePerNode, RandomGenerator rng) {
        int groups = groupCount(nodes, degree, groupSize);
        int[][] groupsOfNode = new int[nodes][];
        int[] pool = new int[groups];
        for (int node = 0; node < nodes; node++) {
            for (int g = 0; g < groups; g++) {
                pool[g] = g;
            }
            for (int i = 0; i < degree; i++) {
                int j = i + rng.nextInt(groups - i);
                int tmp = pool[i];
                pool[i] = pool[j];
                pool[j] = tmp;
            }
            groupsOfNode[node] = Arrays.copyOf(pool, degree);
        }
        return of(groupsOfNode, groups, ratePerNode);
    }

    /**
     * The workload of a given grouping (e.g. a real cluster's plan): node {@code i} is in the groups
     * {@code groupsOfNode[i]}, each in {@code 0..groups-1}; the send rate is set as for a random grouping.
     */
    public static Workload of(int[][] groupsOfNode, int groups, double ratePerNode) {
        int nodes = groupsOfNode.length;
        List<List<Integer>> members = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            members.add(new ArrayList<>());
        }
        for (int node = 0; node < nodes; node++) {
            groupsOfNode[node] = groupsOfNode[node].clone();
            Arrays.sort(groupsOfNode[node]);
            for (int g : groupsOfNode[node]) {
                members.get(g).add(node);
            }
        }
        int[][] membersOfGroup = new int[groups][];
        for (int g = 0; g < groups; g++) {
            membersOfGroup[g] = members.get(g).stream().mapToInt(Integer::intValue).toArray();
        }
        int[][] sendGroups = new int[nodes][];
        double receiversPerSend = 0;
        for (int node = 0; node < nodes; node++) {
            sendGroups[node] = Arrays.stream(groupsOfNode[node]).filter(g -> membersOfGroup[g].length > 1).toArray();
            double sum = 0;
            for (int g : sendGroups[node]) {
                sum += membersOfGroup[g].length - 1;
            }
            receiversPerSend += sendGroups[node].length == 0 ? 0 : sum / sendGroups[node].length;
        }
        // Each send to group G arrives at |G| - 1 nodes: n * rate arrivals/s = sendRate * sum of mean receivers.
        double sendRate = receiversPerSend == 0 ? 0 : nodes * ratePerNode / receiversPerSend;
        return new Workload(groupsOfNode, membersOfGroup, sendGroups, sendRate);
    }

    public int nodes() {
        return groupsOfNode.length;
    }

    public int groups() {
        return membersOfGroup.length;
    }
}
