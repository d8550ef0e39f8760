package io.ricochet.control.message;

/**
 * Daemon to GMS: add {@code nodeId} to {@code group}, which runs {@code protocol} (u8; 0 = Ricochet LEC + NAK).
 * The GMS carries the protocol through to every {@link GroupView} of the group.
 */
public record Join(int group, int nodeId, int protocol) implements ControlMessage {
    /** The protocol code of Ricochet (LEC + NAK). */
    public static final int PROTOCOL_RICOCHET = 0;

    public Join {
        Fields.requireU8(protocol, "protocol");
    }

    @Override
    public int type() {
        return MessageType.JOIN;
    }
}
