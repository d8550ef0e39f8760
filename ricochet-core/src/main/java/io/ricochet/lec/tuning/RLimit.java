package io.ricochet.lec.tuning;

/** What holds a node's tuned r where it is ({@link RateOfFireTuner}). */
public enum RLimit {
    /** The configured r: too little evidence yet, or r is pinned (its range is one value). */
    CONFIGURED("configured r"),
    /** The top of the range (or the most a repair frame carries): the cheapest r allowed. */
    RANGE("top of the r range"),
    /** A larger r would need more c than the c range allows at the loss seen. */
    C_RANGE("larger r would need c above its range"),
    /** A larger r would make LEC's mean recovery latency exceed its target. */
    LATENCY("larger r would make LEC recover later than its latency target");

    private final String description;

    RLimit(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
