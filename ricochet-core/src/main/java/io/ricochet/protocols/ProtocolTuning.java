package io.ricochet.protocols;

/**
 * The settings of one protocol other than Ricochet that a user may change from its default, beside Ricochet's
 * engine settings: each is null for the protocol's own default.
 *
 * @param srmSessionIntervalNs SRM: mean interval of a member's session messages in a group (0: none)
 * @param qsmTokenIntervalNs   QSM: how long a member holds the token before passing it on
 * @param qsmPartitionSize     QSM: most members of a partition; a larger ring unit is split into partitions
 * @param qsmRegenerationFloorNs QSM: shortest wait before a member with work makes a new token
 */
public record ProtocolTuning(Long srmSessionIntervalNs, Long qsmTokenIntervalNs, Integer qsmPartitionSize,
                             Long qsmRegenerationFloorNs) {
    /** Every protocol with its defaults. */
    public static final ProtocolTuning DEFAULTS = new ProtocolTuning(null, null, null, null);
}
