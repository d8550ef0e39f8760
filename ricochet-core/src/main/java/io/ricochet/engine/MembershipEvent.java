package io.ricochet.engine;

import java.util.Objects;

/**
 * A per-group membership change pushed by the group membership service: {@code (JOIN|LEAVE|FAIL, group, node)}
 * (paper, section 4.2.4). The GMS knows nothing of regions; each node derives its multi-group view from these.
 *
 * <p>{@code incarnation} identifies the process behind {@code node} (a daemon picks one per start). A sender's
 * sequence numbers continue while its incarnation stays the same, even across a LEAVE or FAIL and a JOIN; a new
 * incarnation is a restarted sender whose streams start again at 0. The simulator uses 0 throughout.
 *
 * <p>{@code streamStart}, for a JOIN, is the seqno the joining sender's stream in the group continues at, when the
 * event's source knows it: the simulator forms its groups before anything is sent, so every stream starts at 0
 * ({@link #join}). The GMS cannot know it (a sender that left and comes back without restarting continues its
 * numbering), so its events carry {@link #ASK_THE_SENDER}, and a receiver that has the Ricochet engine's join points
 * asks the sender ({@code docs/design/security.md}, "Join points").
 */
public record MembershipEvent(Kind kind, int group, int node, long incarnation, long streamStart) {
    /** What happened to {@code node} in {@code group}. */
    public enum Kind { JOIN, LEAVE, FAIL }

    /** {@link #streamStart} of an event whose source does not know where the sender's stream continues. */
    public static final long ASK_THE_SENDER = -1;

    public MembershipEvent {
        Objects.requireNonNull(kind, "kind");
        if (streamStart < ASK_THE_SENDER) {
            throw new IllegalArgumentException("streamStart " + streamStart + ": a seqno, or ASK_THE_SENDER");
        }
    }

    /** An event from the GMS: the sender's stream start is not known ({@link #ASK_THE_SENDER}). */
    public MembershipEvent(Kind kind, int group, int node, long incarnation) {
        this(kind, group, node, incarnation, ASK_THE_SENDER);
    }

    /** As {@link #MembershipEvent(Kind, int, int, long)}, of incarnation 0. */
    public MembershipEvent(Kind kind, int group, int node) {
        this(kind, group, node, 0);
    }

    /** A JOIN of incarnation 0 by a sender that has sent nothing in the group: its stream starts at 0. */
    public static MembershipEvent join(int group, int node) {
        return new MembershipEvent(Kind.JOIN, group, node, 0, 0);
    }

    public static MembershipEvent leave(int group, int node) {
        return new MembershipEvent(Kind.LEAVE, group, node);
    }

    public static MembershipEvent fail(int group, int node) {
        return new MembershipEvent(Kind.FAIL, group, node);
    }
}
