package io.ricochet.daemon;

import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.HeartbeatFlyweight;
import java.net.InetSocketAddress;

/**
 * Answers the rack failure detector's pings on the unicast socket, before anything reaches the engine or the
 * receive buffer: a daemon whose engine thread is alive answers at once.
 */
final class HeartbeatAnswer {
    private final int self;
    private final byte[] ack = new byte[HeartbeatFlyweight.LENGTH];

    HeartbeatAnswer(int self) {
        this.self = self;
    }

    /**
     * If {@code frame} is a valid HEARTBEAT, sends the ACK to {@code from} and returns true; a malformed one is
     * left to the engine's validator, which counts it.
     */
    boolean answer(byte[] frame, int length, InetSocketAddress from, Transport transport) {
        if (frame[HeaderFlyweight.TYPE_OFFSET] != FrameType.HEARTBEAT) {
            return false;
        }
        int ackLength = HeartbeatFlyweight.ackInto(frame, 0, length, self, ack, 0);
        if (ackLength == 0) {
            return false;
        }
        transport.send(from, ack, 0, ackLength);
        return true;
    }
}
