package io.ricochet.control.message;

/** Failure detector to GMS: {@code nodeId} missed its heartbeats; the GMS removes it from all its groups. */
public record NodeFailed(int nodeId) implements ControlMessage {
    @Override
    public int type() {
        return MessageType.NODE_FAILED;
    }
}
