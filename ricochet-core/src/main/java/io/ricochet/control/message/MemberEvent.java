package io.ricochet.control.message;

import io.ricochet.control.codec.Ipv4;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * GMS to daemon: {@code nodeId}, reachable at {@code address}, joined, left or failed in {@code group}, which is now
 * at view {@code viewId} (paper, section 4.2.4: the 3-tuple {@code (Join, A, n55)}, plus the view id, the node's
 * unicast address and its {@code incarnation} from its latest {@link Register}). A JOIN for a node already in the
 * group announces a new address or a new incarnation (the node's daemon restarted: its streams start again).
 */
public record MemberEvent(MemberEventKind kind, int group, long viewId, int nodeId, InetSocketAddress address,
                          long incarnation) implements ControlMessage {

    public MemberEvent {
        Objects.requireNonNull(kind, "kind");
        Ipv4.require(address, "address");
    }

    @Override
    public int type() {
        return MessageType.MEMBER_EVENT;
    }
}
