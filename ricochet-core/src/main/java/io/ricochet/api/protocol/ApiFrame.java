package io.ricochet.api.protocol;

import io.netty.buffer.ByteBuf;

/**
 * One frame of the local TCP API. A frame knows its type, its request id and how to write its body; the header and
 * the length prefix are {@link ApiFrameCodec}'s job. The three kinds are the three classes of type id.
 */
public sealed interface ApiFrame permits ApiRequest, ApiReply, ApiPush {
    /** The frame's type. */
    ApiFrameType type();

    /** The id that pairs a request with its reply; 0 on pushed frames. */
    int requestId();

    /** Length of the body in bytes (everything after the request id). */
    int bodyLength();

    /** Writes the body, big-endian, at {@code out}'s writer index. */
    void writeBody(ByteBuf out);
}
