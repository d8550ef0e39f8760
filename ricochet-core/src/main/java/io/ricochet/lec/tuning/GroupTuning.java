package io.ricochet.lec.tuning;

/**
 * One group's tuned rate-of-fire and why, for operators ({@code ricochet stats}) and experiments.
 *
 * @param group       the group
 * @param r           the node's r in force (shared by all its groups)
 * @param c           the c in force
 * @param reason      the last decision
 * @param lossRate    the loss rate of the evidence last decided on (NaN before the first decision)
 * @param lecShare    the share of those losses LEC recovered (NaN before, or with no loss)
 * @param wanted      the c the last decision aimed at before rounding, the range, the rate limit and the dead band
 * @param ownEvidence whether the group had enough evidence of its own (else it decided on the whole node's)
 */
public record GroupTuning(int group, int r, double c, TuningReason reason, double lossRate, double lecShare,
                          double wanted, boolean ownEvidence) {
}
