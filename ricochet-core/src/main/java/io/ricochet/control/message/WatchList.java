package io.ricochet.control.message;

import io.ricochet.control.codec.Ipv4;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * GMS to a failure detector: every daemon it is to watch now, in ascending node order, each with the rack it
 * registered in and the address it answers heartbeats on. It replaces the previous list. At most
 * {@link #MAX_TARGETS} targets (one frame).
 */
public record WatchList(List<Target> targets) implements ControlMessage {
    /** The most targets one list carries. */
    public static final int MAX_TARGETS = 4096;

    /** One daemon to watch. */
    public record Target(int nodeId, int rack, InetSocketAddress heartbeat) {
        public Target {
            Ipv4.require(heartbeat, "heartbeat");
            Fields.requireU16(rack, "rack");
        }
    }

    public WatchList {
        targets = List.copyOf(targets);
        if (targets.size() > MAX_TARGETS) {
            throw new IllegalArgumentException(targets.size() + " targets are more than a list carries ("
                    + MAX_TARGETS + ")");
        }
        for (int i = 1; i < targets.size(); i++) {
            if (targets.get(i).nodeId() <= targets.get(i - 1).nodeId()) {
                throw new IllegalArgumentException("targets must be in ascending, distinct node order");
            }
        }
    }

    @Override
    public int type() {
        return MessageType.WATCH_LIST;
    }
}
