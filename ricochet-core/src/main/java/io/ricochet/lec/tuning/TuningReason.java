package io.ricochet.lec.tuning;

/** Why a group's rate-of-fire is what it is: the last decision its controller took. */
public enum TuningReason {
    /** The configured c, no decision yet (too little evidence, or tuning just started). */
    CONFIGURED("configured c, gathering evidence"),
    /** Raised: the losses LEC would leave to NAK at the old c were above the target. */
    RAISED("losses left to NAK above target"),
    /** Lowered half way to what the target needs: it is met with more than two steps to spare. */
    LOWERED("target met with room to spare"),
    /** Unchanged: the target is met, and a step lower would not meet it with room to spare. */
    HELD("target met");

    private final String description;

    TuningReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
