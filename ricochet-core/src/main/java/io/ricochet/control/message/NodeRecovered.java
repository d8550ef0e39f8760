package io.ricochet.control.message;

/** Failure detector to GMS: {@code nodeId} answers again; the GMS puts it back into the groups it was in. */
public record NodeRecovered(int nodeId) implements ControlMessage {
    @Override
    public int type() {
        return MessageType.NODE_RECOVERED;
    }
}
