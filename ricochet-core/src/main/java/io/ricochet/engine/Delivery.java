package io.ricochet.engine;

/** How a delivered packet reached this node. */
public enum Delivery {
    /** The data packet itself arrived. */
    DIRECT,
    /** Recovered by XOR from LEC repairs. */
    LEC,
    /** Recovered by a retransmission the NAK layer asked for. */
    NAK,
    /** Arrived as a plain data packet after its loss had been declared (reordering, not loss). */
    LATE,
    /** Rebuilt from fountain symbols its origin multicast for a burst LEC could not repair (fountain backup). */
    FOUNTAIN
}
