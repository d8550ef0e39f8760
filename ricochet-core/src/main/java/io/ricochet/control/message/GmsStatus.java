package io.ricochet.control.message;

/**
 * GMS to daemon or detector, on a session the replica serves: the partition's Raft {@code term} and the leader's
 * {@code commitIndex} (both u64, carried in a {@code long}). Sent right after SERVING and again, at most once a
 * second, when the commit index moved; a client shows it in its stats.
 */
public record GmsStatus(long term, long commitIndex) implements ControlMessage {
    @Override
    public int type() {
        return MessageType.GMS_STATUS;
    }
}
