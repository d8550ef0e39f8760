package io.ricochet.bench.regions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The QSM paper's region workload (section 3, Figures 5 and 6): each of {@code nodes} nodes joins groups of
 * {@code groups} with Zipf popularity (group of rank i has weight i^-alpha). The paper does not say how a node's
 * "some 10 %" are drawn, so two readings: {@link #distinct} (exactly {@code perNode} different groups, weighted
 * sampling without replacement) and {@link #draws} ({@code perNode} independent draws, the node joining the
 * distinct groups drawn: far fewer groups per node, concentrated on the popular ones). Seeded: the same arguments
 * give the same memberships.
 */
final class ZipfMemberships {
    private ZipfMemberships() {
    }

    /**
     * {@code perNode} distinct groups per node by exponential keys (Efraimidis and Spirakis): each group gets
     * Exp(1) / weight and a node takes the smallest keys. Group id (its popularity rank, 1 = most popular) to its
     * members (node ids 1..nodes, ascending).
     */
    static Map<Integer, List<Integer>> distinct(int nodes, int groups, int perNode, double alpha, long seed) {
        double[] weight = new double[groups + 1];
        for (int g = 1; g <= groups; g++) {
            weight[g] = Math.pow(g, -alpha);
        }
        SplittableRandom random = new SplittableRandom(seed);
        Map<Integer, List<Integer>> members = new HashMap<>();
        for (int node = 1; node <= nodes; node++) {
            // A max-heap of the perNode smallest keys seen so far, as {key, group}.
            PriorityQueue<double[]> kept = new PriorityQueue<>(perNode + 1, (a, b) -> Double.compare(b[0], a[0]));
            for (int g = 1; g <= groups; g++) {
                double key = -Math.log(1 - random.nextDouble()) / weight[g];
                if (kept.size() < perNode) {
                    kept.add(new double[] {key, g});
                } else if (key < kept.peek()[0]) {
                    kept.poll();
                    kept.add(new double[] {key, g});
                }
            }
            for (double[] k : kept) {
                members.computeIfAbsent((int) k[1], x -> new ArrayList<>()).add(node);
            }
        }
        return members;
    }

    /** {@code perNode} Zipf draws with replacement per node (inverse of the cumulative weights); as above. */
    static Map<Integer, List<Integer>> draws(int nodes, int groups, int perNode, double alpha, long seed) {
        double[] cumulative = new double[groups];
        double sum = 0;
        for (int g = 1; g <= groups; g++) {
            sum += Math.pow(g, -alpha);
            cumulative[g - 1] = sum;
        }
        SplittableRandom random = new SplittableRandom(seed);
        Map<Integer, List<Integer>> members = new HashMap<>();
        for (int node = 1; node <= nodes; node++) {
            java.util.Set<Integer> mine = new java.util.TreeSet<>();
            for (int i = 0; i < perNode; i++) {
                int at = java.util.Arrays.binarySearch(cumulative, random.nextDouble() * sum);
                mine.add(1 + Math.min(groups - 1, at >= 0 ? at : -at - 1));
            }
            for (int g : mine) {
                members.computeIfAbsent(g, x -> new ArrayList<>()).add(node);
            }
        }
        return members;
    }
}
