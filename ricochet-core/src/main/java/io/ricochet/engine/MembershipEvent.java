package io.ricochet.engine;

import java.util.Objects;

/**
 * A per-group membership change pushed by the group membership service: {@code (JOIN|LEAVE|FAIL, group, node)}
 * (paper, section 4.2.4). The GMS knows nothing of regions; each node derives its multi-group view from these.
 */
public record MembershipEvent(Kind kind, int group, int node) {
    /** What happened to {@code node} in {@code group}. */
    public enum Kind { JOIN, LEAVE, FAIL }

    public MembershipEvent {
        Objects.requireNonNull(kind, "kind");
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
