package io.ricochet.lec;

import io.ricochet.engine.Counter;
import io.ricochet.engine.CounterRole;

/** Lateral Error Correction's counters (paper, sections 4.1-4.2.5): repairs built, sent and used. */
public enum LecCounter implements Counter {
    REPAIRS_BUILT(5, "repair packets built (one XOR image, possibly sent to several targets)"),
    REPAIRS_SENT(6, "repair packets sent (one per target)"),
    REPAIRS_RECEIVED(7, "repair packets received"),
    REPAIRS_UNUSABLE(9, "received repairs that name a packet this node had but no longer caches"),
    REPAIRS_BUFFERED(10, "repairs missing two or more packets kept for later use"),
    UNUSABLE_REPAIR_EVICTIONS(11, "buffered repairs evicted to stay within the bound"),
    RECOVERED_BY_XOR(13, "lost packets recovered by LEC (one repair, or two combined)"),
    RECOVERED_BY_COMBINING(14, "of RECOVERED_BY_XOR, recovered by XOR-ing two buffered repairs"),
    BIN_XORS(23, "two-input XORs done in repair bins (a repair of r packets takes r - 1; section 4.2.5)"),
    RECOVERY_XORS(24, "payload XORs done to recover packets"),
    RECOVERIES_UNSEALED(44, "packets rebuilt by XOR that did not match their origin's seal, not delivered"),
    REPAIRS_NOT_SENT_TO_ORIGIN(247, "repair copies not sent because the drawn target sent every packet in them");

    private final int id;
    private final String description;

    LecCounter(int id, String description) {
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

    @Override
    public CounterRole role() {
        return switch (this) {
            case REPAIRS_SENT -> CounterRole.REPAIRS_SENT;
            case REPAIRS_RECEIVED -> CounterRole.REPAIRS_RECEIVED;
            case RECOVERED_BY_XOR -> CounterRole.RECOVERED_BY_REPAIR;
            default -> CounterRole.NONE;
        };
    }
}
