package io.ricochet.control.message;

/**
 * What happened to a node in a group, as the GMS tells it (paper, section 4.2.4): the first field of a
 * {@link MemberEvent}. The daemon turns it into the engine's own membership event at its edge.
 */
public enum MemberEventKind {
    /** The node joined the group (or announced a new address or incarnation). */
    JOIN,
    /** The node left the group. */
    LEAVE,
    /** The failure detector declared the node failed. */
    FAIL
}
