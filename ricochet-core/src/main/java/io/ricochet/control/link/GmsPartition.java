package io.ricochet.control.link;

import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.GmsStatus;
import io.ricochet.control.message.GroupView;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.MessageType;
import io.ricochet.control.message.Register;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link GmsClient}'s session with one GMS partition. It remembers the groups of the partition this node wants to
 * be in; on every session with the partition's leader it sends REGISTER and then a JOIN for each, so a new leader,
 * a GMS restart or a reconnect restores them. A GROUP_VIEW of a group this node no longer wants (it left while the
 * partition was down, or a recovery put it back) is answered with LEAVE instead of being passed on. All state lives
 * on the link's event loop.
 */
final class GmsPartition implements ControlLink.Handler {
    private static final Logger LOG = LoggerFactory.getLogger(GmsPartition.class);

    private final int index;
    private final Register registration;
    private final MembershipListener listener;
    private final ControlLink link;
    /** group -> protocol, of the groups of this partition this node wants to be in. */
    private final Map<Integer, Integer> desired = new HashMap<>();

    GmsPartition(int index, Register registration, MembershipListener listener, ControlLink link) {
        this.index = index;
        this.registration = registration;
        this.listener = listener;
        this.link = link;
    }

    void start() {
        link.start(this);
    }

    void join(int group, int protocol) {
        link.execute(() -> {
            desired.put(group, protocol);
            link.send(new Join(group, registration.nodeId(), protocol));
        });
    }

    void leave(int group) {
        link.execute(() -> {
            desired.remove(group);
            link.send(new Leave(group, registration.nodeId()));
        });
    }

    void close() {
        link.close();
    }

    @Override
    public void onUp() {
        link.send(registration);
        desired.forEach((group, protocol) -> link.send(new Join(group, registration.nodeId(), protocol)));
        safely(() -> listener.onPartition(index, true));
    }

    @Override
    public void onDown() {
        safely(() -> listener.onPartition(index, false));
    }

    /** A replica serves another partition: told to the listener as that partition's refusal of every join. */
    @Override
    public void onMisconfigured(String problem) {
        safely(() -> listener.onError(index, ErrorCode.WRONG_PARTITION, problem));
    }

    @Override
    public void onStatus(GmsStatus status) {
        safely(() -> listener.onLeaderStatus(index, link.serving(), status.term(), status.commitIndex()));
    }

    @Override
    public void onMessage(ControlMessage message) {
        if (message instanceof GroupView view) {
            if (desired.containsKey(view.group())) {
                safely(() -> listener.onGroupView(view));
            } else {
                LOG.info("{}: in group {} which this node left; leaving again", link.name(), view.group());
                link.send(new Leave(view.group(), registration.nodeId()));
            }
        } else if (message instanceof MemberEvent event) {
            safely(() -> listener.onMemberEvent(event));
        } else if (message instanceof ErrorReply error) {
            LOG.warn("{}: GMS error {}: {}", link.name(), ErrorCode.name(error.code()), error.message());
            safely(() -> listener.onError(index, error.code(), error.message()));
        } else {
            LOG.warn("{}: ignoring unexpected {} from the GMS", link.name(), MessageType.name(message.type()));
        }
    }

    private void safely(Runnable callback) {
        link.callSafely("membership listener", callback);
    }
}
