package io.ricochet.engine;

import java.util.Objects;

/**
 * A per-group membership change pushed by the group membership service: {@code (JOIN|LEAVE|FAIL, group, node)}
 * (paper, section 4.2.4). The GMS knows nothing of regions; each node derives its multi-group view from these.
 *
 * <p>{@code incarnation} identifies the process behind {@code node} (a daemon picks one per start). A sender's
 * sequence numbers continue while its incarnation stays the same, even across a LEAVE or FAIL and a JOIN; a new
 * incarnation is a restarted sender whose streams start again at 0. The simulator uses 0 throughout.
 */
public record MembershipEvent(Kind kind, int group, int node, long incarnation) {
    /** What happened to {@code node} in {@code group}. */
    public enum Kind { JOIN, LEAVE, FAIL }

    public MembershipEvent {
        Objects.requireNonNull(kind, "kind");
    }

    /** An event of incarnation 0. */
    public MembershipEvent(Kind kind, int group, int node) {
        this(kind, group, node, 0);
    }

    public static MembershipEvent join(int group, int node) {
        return new MembershipEvent(Kind.JOIN, group, node);
    }

    public static MembershipEvent leave(int group, int node) {
        return new MembershipEvent(Kind.LEAVE, group, node);
    }

    public static MembershipEvent fail(int group, int node) {
        return new MembershipEvent(Kind.FAIL, group, node);
    }
}
