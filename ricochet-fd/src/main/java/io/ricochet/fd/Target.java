package io.ricochet.fd;

import io.ricochet.wire.HeartbeatFlyweight;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Something a failure detector pings: a daemon of its rack, or another detector (a rack detector watched by the
 * top-level chain, or the next detector of that chain).
 *
 * @param kind what is watched, which decides how a verdict is reported
 * @param wireId the id its HEARTBEAT_ACKs carry as their source: a daemon's node id, or a detector's
 *               {@link #detectorWireId wire id}
 * @param name the name verdicts and logs use: the node id in decimal, or the detector's {@code --id}
 * @param address its unicast UDP address, where heartbeats go
 */
public record Target(Kind kind, int wireId, String name, InetSocketAddress address) {

    /** What a target is. */
    public enum Kind {
        /** A Ricochet daemon: verdicts go to {@code FailureReporter.failed/recovered(nodeId)}. */
        DAEMON,
        /** A failure detector: verdicts go to {@code FailureReporter.detectorFailed/detectorRecovered(name)}. */
        DETECTOR
    }

    public Target {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
    }

    /** The daemon with node id {@code nodeId}, answering heartbeats at {@code address}. */
    public static Target daemon(int nodeId, InetSocketAddress address) {
        return new Target(Kind.DAEMON, nodeId, Integer.toString(nodeId), address);
    }

    /** The failure detector started with {@code --id name}, bound to {@code address}. */
    public static Target detector(String name, InetSocketAddress address) {
        return new Target(Kind.DETECTOR, detectorWireId(name), name, address);
    }

    /**
     * The 32-bit id a detector named {@code name} puts in the source field of the frames it sends:
     * {@link HeartbeatFlyweight#detectorWireId}, the {@link String#hashCode()} of the name, which the Java language
     * fixes, so every detector (and every daemon listing it in {@code failure-detectors}) computes the same id for a
     * name without any coordination.
     */
    public static int detectorWireId(String name) {
        return HeartbeatFlyweight.detectorWireId(name);
    }

    /** For logs and messages: {@code node 7 (10.0.0.7:7100)} or {@code detector rack-2 (10.0.1.1:7200)}. */
    public String describe() {
        return (kind == Kind.DAEMON ? "node " : "detector ") + name + " (" + Endpoints.format(address) + ")";
    }
}
