package io.ricochet.lec;

/**
 * A populated region of a node's neighbourhood: the nodes that share exactly the groups in {@code label} with it
 * (paper, section 4.1.1). Every neighbour is in exactly one region; this node itself is in none.
 *
 * @param label the groups shared with this node
 * @param nodes the members, sorted ascending
 */
public record NeighbourRegion(GroupSet label, int[] nodes) {
    public int size() {
        return nodes.length;
    }
}
