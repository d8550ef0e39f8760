package io.ricochet.api.protocol;

import io.netty.buffer.ByteBuf;
import io.ricochet.api.Ordering;
import java.util.Objects;

/** Frames a client sends; the daemon answers each with exactly one {@link ApiReply} carrying the same id. */
public sealed interface ApiRequest extends ApiFrame {

    /** HELLO: must be the first frame of a connection. Body: version u16, client name (UTF-8, rest of frame). */
    record Hello(int requestId, int version, String clientName) implements ApiRequest {
        public Hello {
            Objects.requireNonNull(clientName, "clientName");
        }

        static Hello read(int requestId, ByteBuf body) throws MalformedFrameException {
            int version = body.readUnsignedShort();
            if (body.readableBytes() > ApiProtocol.MAX_CLIENT_NAME_LENGTH) {
                throw new MalformedFrameException(requestId, "client name longer than "
                        + ApiProtocol.MAX_CLIENT_NAME_LENGTH + " bytes");
            }
            return new Hello(requestId, version, Bodies.restAsText(body));
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.HELLO;
        }

        @Override
        public int bodyLength() {
            return 2 + Bodies.utf8Length(clientName);
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeShort(version);
            Bodies.writeText(out, clientName);
        }
    }

    /** JOIN: subscribe this connection to a group. Body: group i32. */
    record Join(int requestId, int group) implements ApiRequest {
        @Override
        public ApiFrameType type() {
            return ApiFrameType.JOIN;
        }

        @Override
        public int bodyLength() {
            return 4;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeInt(group);
        }
    }

    /** LEAVE: unsubscribe this connection from a group. Body: group i32. */
    record Leave(int requestId, int group) implements ApiRequest {
        @Override
        public ApiFrameType type() {
            return ApiFrameType.LEAVE;
        }

        @Override
        public int bodyLength() {
            return 4;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeInt(group);
        }
    }

    /** SEND: multicast a payload to a group this connection joined. Body: group i32, payload (rest of frame). */
    record Send(int requestId, int group, byte[] payload) implements ApiRequest {
        public Send {
            Objects.requireNonNull(payload, "payload");
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.SEND;
        }

        @Override
        public int bodyLength() {
            return sendBodyLength(payload);
        }

        @Override
        public void writeBody(ByteBuf out) {
            writeSendBody(out, group, payload);
        }
    }

    /** STATS: ask for the daemon's counters. Empty body. */
    record Stats(int requestId) implements ApiRequest {
        @Override
        public ApiFrameType type() {
            return ApiFrameType.STATS;
        }

        @Override
        public int bodyLength() {
            return 0;
        }

        @Override
        public void writeBody(ByteBuf out) {
        }
    }

    /**
     * TRY_SEND: as SEND, but the daemon answers ERROR {@code BUSY} at once instead of waiting when it cannot take
     * the packet now. Body: group i32, payload (rest of frame).
     */
    record TrySend(int requestId, int group, byte[] payload) implements ApiRequest {
        public TrySend {
            Objects.requireNonNull(payload, "payload");
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.TRY_SEND;
        }

        @Override
        public int bodyLength() {
            return sendBodyLength(payload);
        }

        @Override
        public void writeBody(ByteBuf out) {
            writeSendBody(out, group, payload);
        }
    }

    /**
     * OPTIONS: sets this connection's options, replacing the previous ones. Body: flags u32, a set of
     * {@link #NO_ECHO} and {@link #NO_LOCAL}; any other bit is malformed.
     */
    record Options(int requestId, int flags) implements ApiRequest {
        /** Bit 0: the connection does not receive the packets it sent itself. */
        public static final int NO_ECHO = 1;
        /** Bit 1: the connection receives no packet sent through this daemon, by any connection. */
        public static final int NO_LOCAL = 2;
        /** Every flag this version knows. */
        public static final int KNOWN_FLAGS = NO_ECHO | NO_LOCAL;

        public Options {
            if ((flags & ~KNOWN_FLAGS) != 0) {
                throw new IllegalArgumentException(String.format("unknown option flags 0x%08x", flags));
            }
        }

        static Options read(int requestId, ByteBuf body) throws MalformedFrameException {
            int flags = body.readInt();
            if ((flags & ~KNOWN_FLAGS) != 0) {
                throw new MalformedFrameException(requestId, String.format("unknown option flags 0x%08x",
                        flags & ~KNOWN_FLAGS));
            }
            return new Options(requestId, flags);
        }

        /** Whether {@code flag} is set. */
        public boolean has(int flag) {
            return (flags & flag) != 0;
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.OPTIONS;
        }

        @Override
        public int bodyLength() {
            return 4;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeInt(flags);
        }
    }

    /**
     * ORDER (protocol version 3): how this connection takes {@code group}'s messages from now on, replacing what it
     * asked before; valid before or after JOIN. Body: group i32, mode u8 ({@link Ordering#wire()}); any other mode is
     * malformed.
     */
    record Order(int requestId, int group, Ordering ordering) implements ApiRequest {
        public Order {
            Objects.requireNonNull(ordering, "ordering");
        }

        static Order read(int requestId, ByteBuf body) throws MalformedFrameException {
            int group = body.readInt();
            int mode = body.readUnsignedByte();
            Ordering ordering = Ordering.of(mode);
            if (ordering == null) {
                throw new MalformedFrameException(requestId, "unknown ordering mode " + mode
                        + " (0 UNORDERED, 1 FIFO)");
            }
            return new Order(requestId, group, ordering);
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.ORDER;
        }

        @Override
        public int bodyLength() {
            return 5;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeInt(group);
            out.writeByte(ordering.wire());
        }
    }

    /** The body of SEND and TRY_SEND: group i32, then the payload. */
    private static int sendBodyLength(byte[] payload) {
        return 4 + payload.length;
    }

    private static void writeSendBody(ByteBuf out, int group, byte[] payload) {
        out.writeInt(group);
        out.writeBytes(payload);
    }
}
