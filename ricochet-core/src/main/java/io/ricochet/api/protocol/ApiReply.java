package io.ricochet.api.protocol;

import io.netty.buffer.ByteBuf;
import io.ricochet.api.ApiException;
import java.util.Objects;

/** Frames the daemon sends in answer to a request, with the request's id. */
public sealed interface ApiReply extends ApiFrame {

    /** HELLO_REPLY: body version u16, node id i32, max payload u32. */
    record HelloReply(int requestId, int version, int nodeId, int maxPayload, int maxMessage) implements ApiReply {
        /** Versions 1 and 2: the largest message is the largest payload of one datagram. */
        public HelloReply(int requestId, int version, int nodeId, int maxPayload) {
            this(requestId, version, nodeId, maxPayload, maxPayload);
        }

        static HelloReply read(int requestId, ByteBuf body) throws MalformedFrameException {
            int version = body.readUnsignedShort();
            int nodeId = body.readInt();
            long maxPayload = body.readUnsignedInt();
            long maxMessage = maxPayload;
            if (body.readableBytes() == 4) {
                maxMessage = body.readUnsignedInt();
            } else if (body.readableBytes() != 0) {
                throw new MalformedFrameException(requestId, "HELLO_REPLY of " + (10 + body.readableBytes())
                        + " bytes: must be 10, or 14 with the largest message");
            }
            if (maxPayload > Integer.MAX_VALUE || maxMessage > Integer.MAX_VALUE || maxMessage < maxPayload) {
                throw new MalformedFrameException(requestId, "max payload " + maxPayload + " or max message "
                        + maxMessage + " out of range");
            }
            return new HelloReply(requestId, version, nodeId, (int) maxPayload, (int) maxMessage);
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.HELLO_REPLY;
        }

        /** Version 3 adds the largest message; earlier versions end at the largest payload. */
        @Override
        public int bodyLength() {
            return version >= ApiProtocol.LARGE_MESSAGE_VERSION ? 14 : 10;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeShort(version);
            out.writeInt(nodeId);
            out.writeInt(maxPayload);
            if (version >= ApiProtocol.LARGE_MESSAGE_VERSION) {
                out.writeInt(maxMessage);
            }
        }
    }

    /** OK: the request succeeded. Body: value u64 (a SEND's seqno, otherwise 0). */
    record Ok(int requestId, long value) implements ApiReply {
        @Override
        public ApiFrameType type() {
            return ApiFrameType.OK;
        }

        @Override
        public int bodyLength() {
            return 8;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeLong(value);
        }
    }

    /** STATS_REPLY: body is the stats map as UTF-8 JSON (rest of frame). */
    record StatsReply(int requestId, byte[] json) implements ApiReply {
        public StatsReply {
            Objects.requireNonNull(json, "json");
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.STATS_REPLY;
        }

        @Override
        public int bodyLength() {
            return json.length;
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeBytes(json);
        }
    }

    /** ERROR: the request failed. Body: code u16 ({@link ApiException.Code#wire()}), message (UTF-8, rest). */
    record Error(int requestId, ApiException.Code code, String message) implements ApiReply {
        public Error {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }

        static Error read(int requestId, ByteBuf body) {
            ApiException.Code code = ApiException.Code.of(body.readUnsignedShort());
            return new Error(requestId, code, Bodies.restAsText(body));
        }

        /** The exception a client throws for this reply. */
        public ApiException toException() {
            return new ApiException(code, message);
        }

        @Override
        public ApiFrameType type() {
            return ApiFrameType.ERROR;
        }

        @Override
        public int bodyLength() {
            return 2 + Bodies.utf8Length(message);
        }

        @Override
        public void writeBody(ByteBuf out) {
            out.writeShort(code.wire());
            Bodies.writeText(out, message);
        }
    }
}
