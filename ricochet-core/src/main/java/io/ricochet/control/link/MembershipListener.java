package io.ricochet.control.link;

import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;

/**
 * What a daemon hears from the GMS through {@link GmsClient}.
 *
 * <p><b>Threading:</b> every callback runs on a Netty event loop thread of the group given to the client (the one
 * that serves the partition concerned). Callbacks must not block; a daemon hands them on to the thread that owns
 * its protocol engine. Events of one partition arrive in the order the GMS sent them; events of different
 * partitions are unordered. An exception thrown by a callback is logged and otherwise ignored.
 */
public interface MembershipListener {
    /** A full snapshot of a group this node is in (after its JOIN, and on every (re)connect). */
    void onGroupView(GroupView view);

    /** A node joined, left or failed in a group this node is in (this node included). */
    void onMemberEvent(MemberEvent event);

    /**
     * The connection to GMS partition {@code partition} came up or went down. Data keeps flowing in joined groups
     * while a partition is down; the client keeps reconnecting and re-joins when it is back.
     */
    void onPartition(int partition, boolean up);

    /**
     * The leader of partition {@code partition}, at {@code replica}, says the partition is in Raft term {@code term}
     * with commit index {@code commitIndex} (after each connect, and as it moves). For stats only.
     */
    default void onLeaderStatus(int partition, java.net.InetSocketAddress replica, long term, long commitIndex) {
    }

    /** Partition {@code partition} refused a request: {@code code} is one of {@link ErrorCode}. */
    void onError(int partition, int code, String message);
}
