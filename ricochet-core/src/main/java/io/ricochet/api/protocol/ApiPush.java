package io.ricochet.api.protocol;

import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * Frames the daemon pushes without a request (request id 0): deliveries and loss notices for the groups the
 * connection joined, and OVERFLOW and DROPPED when backpressure made it drop some of them: how many, and which.
 */
public sealed interface ApiPush extends ApiFrame {

    @Override
    default int requestId() {
        return 0;
    }

    /** DELIVER: body origin i32, group i32, seqno u64, payload (rest of frame). */
    record Deliver(int origin, int group, long seqno, byte[] payload) implements ApiPush {
        /** Bytes of a DELIVER body before the payload: origin, group, seqno. */
        public static final int BODY_BEFORE_PAYLOAD = 16;

        public Deliver {
            Objects.requireNonNull(payload, "payload");
        }

        static Deliver read(ByteBuf body) throws MalformedFrameException {
            int origin = body.readInt();
            int group = body.readInt();
            long seqno = Bodies.seqno(body, 0);
            return new Deliver(origin, group, seqno, Bodies.rest(body));
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.DELIVER;
        }

        @Override
        public int bodyLength() {
            return BODY_BEFORE_PAYLOAD + payload.length;
        }

        @Override
        public void writeBody(ByteBuf out) {
            writeBody(origin, group, seqno, payload, 0, payload.length, out);
        }

        /**
         * Writes a whole DELIVER frame (length prefix included) straight from the daemon's bytes, with no
         * intermediate record or payload copy: the path of every delivery to a connection.
         */
        public static void encode(int origin, int group, long seqno, byte[] bytes, int offset, int length,
                                  ByteBuf out) {
            ApiFrameCodec.writeHeader(ApiFrameType.DELIVER, 0, BODY_BEFORE_PAYLOAD + length, out);
            writeBody(origin, group, seqno, bytes, offset, length, out);
        }

        private static void writeBody(int origin, int group, long seqno, byte[] bytes, int offset, int length,
                                      ByteBuf out) {
            out.writeInt(origin).writeInt(group).writeLong(seqno).writeBytes(bytes, offset, length);
        }
    }

    /** LOST: the packet will never be delivered. Body: origin i32, group i32, seqno u64. */
    record Lost(int origin, int group, long seqno) implements ApiPush {
        static Lost read(ByteBuf body) throws MalformedFrameException {
            int origin = body.readInt();
            int group = body.readInt();
            return new Lost(origin, group, Bodies.seqno(body, 0));
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.LOST;
        }

        @Override
        public int bodyLength() {
            return 16;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeInt(origin).writeInt(group).writeLong(seqno);
        }
    }

    /** OVERFLOW: DELIVER and LOST frames dropped for this connection since the last OVERFLOW. Body: u64. */
    record Overflow(long dropped) implements ApiPush {
        static Overflow read(ByteBuf body) throws MalformedFrameException {
            long dropped = body.readLong();
            if (dropped < 0) {
                throw new MalformedFrameException(0, "negative overflow count " + dropped);
            }
            return new Overflow(dropped);
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.OVERFLOW;
        }

        @Override
        public int bodyLength() {
            return 8;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeLong(dropped);
        }
    }

    /**
     * DROPPED: the messages of (origin, group) with ids {@code firstId} to {@code lastId} that this connection would
     * have been handed were dropped for it by backpressure, and will never be delivered to it; every message id in
     * the range that exists was dropped (a run may span datagrams, and a dropped LOST covers its whole datagram).
     * Body: origin i32, group i32, first id u64, last id u64.
     */
    record Dropped(int origin, int group, long firstId, long lastId) implements ApiPush {
        public Dropped {
            if (firstId < 0 || lastId < firstId) {
                throw new IllegalArgumentException("no run of message ids " + firstId + ".." + lastId);
            }
        }

        static Dropped read(ByteBuf body) throws MalformedFrameException {
            int origin = body.readInt();
            int group = body.readInt();
            long first = Bodies.seqno(body, 0);
            long last = Bodies.seqno(body, 0);
            if (last < first) {
                throw new MalformedFrameException(0, "DROPPED run " + first + ".." + last + " ends before it starts");
            }
            return new Dropped(origin, group, first, last);
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.DROPPED;
        }

        @Override
        public int bodyLength() {
            return 24;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeInt(origin).writeInt(group).writeLong(firstId).writeLong(lastId);
        }
    }
}
