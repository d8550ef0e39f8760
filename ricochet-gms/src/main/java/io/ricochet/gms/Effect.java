package io.ricochet.gms;

import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GroupView;

/**
 * What applying one committed {@link Command} asks of the replica that holds the sessions (the leader), in order.
 * Every replica computes the same effects from the same log; only the leader has sessions to carry them out on.
 */
sealed interface Effect {
    /** The node of a REGISTER is now served by {@code session}: push its updates there from now on. */
    record Bind(long session, int node) implements Effect {
    }

    /** Push {@code update}'s event to its recipients. */
    record Push(Update update) implements Effect {
    }

    /** Send {@code view} to {@code node}. */
    record SendView(int node, GroupView view) implements Effect {
    }

    /** The detector of a WATCH is now served by {@code session}: its watch lists go there from now on. */
    record BindDetector(long session, String detector) implements Effect {
    }

    /** Send {@code list} to detector {@code detector}. */
    record SendWatchList(String detector, io.ricochet.control.message.WatchList list) implements Effect {
    }

    /** Answer the request of {@code session} with {@code error}; nothing changed beyond the effects before it. */
    record Refuse(long session, ErrorReply error) implements Effect {
    }
}
