package io.ricochet.gms;

import io.ricochet.region.RegionPlanner;
import java.util.Objects;

/**
 * Whether the GMS gives groups QSM regions ({@code docs/design/regions.md}), from which address pool, and the
 * smallest region a group may create when it joins a set of groups ({@link RegionPlanner}). Every replica of a
 * partition must run with the same settings: they decide view ids and addresses, which the replicas must agree on.
 */
public record RegionSettings(boolean enabled, MulticastPool pool, int minRegionSize) {
    /** Regions off: each group is sent to its own address, as before regions existed. */
    public static final RegionSettings OFF = new RegionSettings(false, null, 1);
    /** The default base of the region address pool. */
    public static final String DEFAULT_BASE = "239.254.0.0";
    /** The default smallest region a group may create (the QSM paper's regions hold 5-10 members). */
    public static final int DEFAULT_MIN_REGION_SIZE = 5;

    public RegionSettings {
        if (enabled) {
            Objects.requireNonNull(pool, "region pool");
        }
        if (minRegionSize < 1 || minRegionSize > RegionPlanner.MAX_MIN_REGION_SIZE) {
            throw new IllegalArgumentException("--min-region-size must be in 1.." + RegionPlanner.MAX_MIN_REGION_SIZE
                    + ", got " + minRegionSize);
        }
    }
}
