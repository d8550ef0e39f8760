package io.ricochet.control.link;

/**
 * How groups are spread over the GMS partitions (paper, section 4.2.4): partition {@code index} of {@code count}
 * owns every group {@code g} with {@code Math.floorMod(g, count) == index}.
 */
public record Partitioning(int index, int count) {
    public Partitioning {
        if (count < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + count);
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("partition " + index + " is out of range 0.." + (count - 1)
                    + " for " + count + " partition(s)");
        }
    }

    /** The partition of {@code count} that owns {@code group}. */
    public static int partitionOf(int group, int count) {
        return Math.floorMod(group, count);
    }

    /** Whether this partition owns {@code group}. */
    public boolean owns(int group) {
        return partitionOf(group, count) == index;
    }

    /** The partition that owns {@code group}. */
    public int ownerOf(int group) {
        return partitionOf(group, count);
    }
}
