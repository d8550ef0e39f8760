package io.ricochet.control.message;

/** Daemon to GMS: remove {@code nodeId} from {@code group}. Leaving a group one is not in does nothing. */
public record Leave(int group, int nodeId) implements ControlMessage {
    @Override
    public int type() {
        return MessageType.LEAVE;
    }
}
