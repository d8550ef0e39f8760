package io.ricochet.srm;

import io.ricochet.engine.Counter;

/** SRM's counters: requests and repairs with their suppression, and session messages. */
public enum SrmCounter implements Counter {
    SRM_REQUESTS_SENT(100, "SRM: repair requests multicast by this node"),
    SRM_REQUESTS_RECEIVED(101, "SRM: repair requests received from other members"),
    SRM_REQUESTS_SUPPRESSED(102, "SRM: request timers backed off on hearing another member's request"),
    SRM_REQUESTS_HELD_DOWN(103, "SRM: requests ignored because a repair of the packet was just sent or heard"),
    SRM_REPAIRS_SENT(104, "SRM: repairs multicast by this node (its own packets or cached ones)"),
    SRM_REPAIRS_RECEIVED(105, "SRM: repairs received"),
    SRM_REPAIRS_SUPPRESSED(106, "SRM: scheduled repairs cancelled on hearing another member's repair"),
    SRM_REPAIR_TABLE_FULL(107, "SRM: requests or repairs not tracked because the repair table was full"),
    SRM_REPAIRS_UNAVAILABLE(108, "SRM: requests for a packet this node had but no longer holds"),
    SRM_SESSIONS_SENT(109, "SRM: session messages multicast by this node"),
    SRM_SESSIONS_RECEIVED(110, "SRM: session messages received"),
    SRM_LOSSES_FROM_SESSIONS(111, "SRM: of LOSSES_DETECTED, losses revealed by a session message"),
    SRM_LOSSES_FROM_REQUESTS(112, "SRM: of LOSSES_DETECTED, losses revealed by another member's request");

    private final int id;
    private final String description;

    SrmCounter(int id, String description) {
        this.id = id;
        this.description = description;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String description() {
        return description;
    }
}
