package io.ricochet.api.protocol;

import io.netty.buffer.ByteBuf;

/**
 * Encodes and decodes local-API frames: the one gate every received frame goes through. {@link #decode} checks the
 * header, the type and the body length against the type before any field is read, and allocates nothing sized by
 * an unchecked length; the frame splitter in front of it has already bounded the whole frame.
 */
public final class ApiFrameCodec {

    private ApiFrameCodec() {
    }

    /** Bytes {@link #encode} writes for {@code frame}, length prefix included. */
    public static int encodedLength(ApiFrame frame) {
        return ApiProtocol.LENGTH_FIELD_LENGTH + ApiProtocol.HEADER_LENGTH + frame.bodyLength();
    }

    /** Writes {@code frame} with its length prefix at {@code out}'s writer index. */
    public static void encode(ApiFrame frame, ByteBuf out) {
        writeHeader(frame.type(), frame.requestId(), frame.bodyLength(), out);
        frame.writeBody(out);
    }

    /** Writes a frame's length prefix and header; its body of {@code bodyLength} bytes must follow. */
    public static void writeHeader(ApiFrameType type, int requestId, int bodyLength, ByteBuf out) {
        out.writeInt(ApiProtocol.HEADER_LENGTH + bodyLength);
        out.writeByte(type.wire());
        out.writeInt(requestId);
    }

    /**
     * Decodes one frame.
     *
     * @param frame the bytes after the length prefix, exactly one frame; consumed
     * @return the frame
     * @throws MalformedFrameException if the bytes are not a valid frame
     */
    public static ApiFrame decode(ByteBuf frame) throws MalformedFrameException {
        if (frame.readableBytes() < ApiProtocol.HEADER_LENGTH) {
            throw new MalformedFrameException(0, "frame of " + frame.readableBytes()
                    + " bytes is shorter than the " + ApiProtocol.HEADER_LENGTH + "-byte header");
        }
        int typeId = frame.readUnsignedByte();
        int requestId = frame.readInt();
        ApiFrameType type = ApiFrameType.of(typeId);
        if (type == null) {
            throw new MalformedFrameException(requestId, String.format("unknown frame type 0x%02x", typeId));
        }
        checkRequestId(type, requestId);
        checkBodyLength(type, requestId, frame.readableBytes());
        return body(type, requestId, frame);
    }

    private static ApiFrame body(ApiFrameType type, int requestId, ByteBuf body) throws MalformedFrameException {
        return switch (type) {
            case HELLO -> ApiRequest.Hello.read(requestId, body);
            case JOIN -> new ApiRequest.Join(requestId, body.readInt());
            case LEAVE -> new ApiRequest.Leave(requestId, body.readInt());
            case SEND -> new ApiRequest.Send(requestId, body.readInt(), Bodies.rest(body));
            case STATS -> new ApiRequest.Stats(requestId);
            case TRY_SEND -> new ApiRequest.TrySend(requestId, body.readInt(), Bodies.rest(body));
            case OPTIONS -> ApiRequest.Options.read(requestId, body);
            case ORDER -> ApiRequest.Order.read(requestId, body);
            case HELLO_REPLY -> ApiReply.HelloReply.read(requestId, body);
            case OK -> new ApiReply.Ok(requestId, body.readLong());
            case STATS_REPLY -> new ApiReply.StatsReply(requestId, Bodies.rest(body));
            case ERROR -> ApiReply.Error.read(requestId, body);
            case DELIVER -> ApiPush.Deliver.read(body);
            case LOST -> ApiPush.Lost.read(body);
            case OVERFLOW -> ApiPush.Overflow.read(body);
            case DROPPED -> ApiPush.Dropped.read(body);
        };
    }

    private static void checkRequestId(ApiFrameType type, int requestId) throws MalformedFrameException {
        if (type.isPush() && requestId != 0) {
            throw new MalformedFrameException(0, type + " with request id " + requestId + ", must be 0");
        }
        if (type.isRequest() && requestId == 0) {
            throw new MalformedFrameException(0, type + " with request id 0, reserved for pushed frames");
        }
    }

    private static void checkBodyLength(ApiFrameType type, int requestId, int bodyLength)
            throws MalformedFrameException {
        boolean fits = type.variableLength() ? bodyLength >= type.minBodyLength()
                : bodyLength == type.minBodyLength();
        if (!fits) {
            throw new MalformedFrameException(requestId, type + " body of " + bodyLength + " bytes, expected "
                    + (type.variableLength() ? "at least " : "") + type.minBodyLength());
        }
    }
}
