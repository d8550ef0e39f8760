package io.ricochet.fd;

/** Where {@link HeartbeatHandler} hands each valid HEARTBEAT_ACK: the fields of the frame, nothing else. */
@FunctionalInterface
interface AckSink {
    void onAck(int source, long sequence, long sendTimeNs);
}
