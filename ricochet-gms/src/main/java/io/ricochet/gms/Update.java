package io.ricochet.gms;

import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.MemberEvent;
import java.util.List;

/**
 * One membership change of one group, as {@link MembershipState} reports it: the {@code event} to push, the
 * group's {@code view} after the change, and the nodes to push the event to, in ascending order.
 */
record Update(MemberEvent event, GroupView view, List<Integer> recipients) {
    Update {
        recipients = List.copyOf(recipients);
    }
}
