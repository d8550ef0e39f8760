package io.ricochet.workload;

import java.util.Comparator;

/**
 * One sender's stream in one group: the unit sequence numbers count in.
 *
 * @param origin the sending node
 * @param group  the group
 */
public record StreamKey(int origin, int group) implements Comparable<StreamKey> {
    private static final Comparator<StreamKey> ORDER =
            Comparator.comparingInt(StreamKey::origin).thenComparingInt(StreamKey::group);

    @Override
    public int compareTo(StreamKey other) {
        return ORDER.compare(this, other);
    }
}
