package io.ricochet.api.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/** Reading and sizing the variable-length fields that end a frame body: UTF-8 text or raw bytes. */
final class Bodies {

    private Bodies() {
    }

    /** The rest of {@code body} as bytes. */
    static byte[] rest(ByteBuf body) {
        byte[] bytes = new byte[body.readableBytes()];
        body.readBytes(bytes);
        return bytes;
    }

    /** The rest of {@code body} as UTF-8 text (malformed sequences become U+FFFD). */
    static String restAsText(ByteBuf body) {
        return body.readCharSequence(body.readableBytes(), StandardCharsets.UTF_8).toString();
    }

    static int utf8Length(String text) {
        return ByteBufUtil.utf8Bytes(text);
    }

    /** Writes exactly {@link #utf8Length} bytes (writeCharSequence would want room for the worst case). */
    static void writeText(ByteBuf out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A sequence number as read: negative values (top bit set) are malformed. */
    static long seqno(ByteBuf body, int requestId) throws MalformedFrameException {
        long seqno = body.readLong();
        if (seqno < 0) {
            throw new MalformedFrameException(requestId, "negative sequence number " + seqno);
        }
        return seqno;
    }
}
