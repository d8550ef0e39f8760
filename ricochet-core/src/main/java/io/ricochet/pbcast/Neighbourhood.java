package io.ricochet.pbcast;

/**
 * Which members are "neighbours" for Pbcast-local (paper, section 4.3): processes close to each other, for example
 * in the same LAN of a wide-area group; in a datacenter, the same rack. Two nodes are neighbours when they are in
 * the same zone. A strategy, so tests and deployments inject their topology instead of flags.
 */
public interface Neighbourhood {
    /** The zone of {@code node}; nodes of equal zones are neighbours. */
    int zoneOf(int node);

    /** Every node is every other's neighbour: one flat cluster (the default). */
    static Neighbourhood flat() {
        return Flat.INSTANCE;
    }

    /** Nodes {@code 0..size-1} form rack 0, the next {@code size} rack 1, and so on. */
    static Neighbourhood racks(int nodesPerRack) {
        return new Racks(nodesPerRack);
    }

    /** See {@link #flat()}. */
    enum Flat implements Neighbourhood {
        INSTANCE;

        @Override
        public int zoneOf(int node) {
            return 0;
        }

        @Override
        public String toString() {
            return "flat";
        }
    }

    /** See {@link #racks(int)}. */
    record Racks(int nodesPerRack) implements Neighbourhood {
        public Racks {
            if (nodesPerRack < 1) {
                throw new IllegalArgumentException("nodes-per-rack = " + nodesPerRack + ": must be at least 1");
            }
        }

        @Override
        public int zoneOf(int node) {
            return Math.floorDiv(node, nodesPerRack);
        }

        @Override
        public String toString() {
            return "racks:" + nodesPerRack;
        }
    }
}
