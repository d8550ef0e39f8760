package io.ricochet.control.codec;

import io.netty.buffer.ByteBuf;
import io.ricochet.control.codec.ControlDecodeException.Reason;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked big-endian reads over one frame body for {@link ControlCodec}: every read first checks that the
 * bytes are there and throws {@link ControlDecodeException} if not, so nothing reads past the frame.
 */
final class FrameReader {
    private final ByteBuf buf;
    private final String what;

    FrameReader(ByteBuf buf, String what) {
        this.buf = buf;
        this.what = what;
    }

    int u8() throws ControlDecodeException {
        need(1, "a u8");
        return buf.readUnsignedByte();
    }

    int u16() throws ControlDecodeException {
        need(2, "a u16");
        return buf.readUnsignedShort();
    }

    int i32() throws ControlDecodeException {
        need(4, "an i32");
        return buf.readInt();
    }

    long u64() throws ControlDecodeException {
        need(8, "a u64");
        return buf.readLong();
    }

    InetSocketAddress socketAddress() throws ControlDecodeException {
        need(Ipv4.SOCKET_ADDRESS_BYTES, "an IPv4 address and port");
        int address = buf.readInt();
        return Ipv4.socketAddress(address, buf.readUnsignedShort());
    }

    /** A u16 byte count, then that many bytes of strict UTF-8 (at most {@link ControlCodec#MAX_TEXT_BYTES}). */
    String text() throws ControlDecodeException {
        int length = u16();
        if (length > ControlCodec.MAX_TEXT_BYTES) {
            throw bad("text of " + length + " bytes is longer than " + ControlCodec.MAX_TEXT_BYTES);
        }
        need(length, "text of " + length + " bytes");
        ByteBuffer bytes = buf.nioBuffer(buf.readerIndex(), length);
        buf.skipBytes(length);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw bad("text is not valid UTF-8");
        }
    }

    int remaining() {
        return buf.readableBytes();
    }

    void end() throws ControlDecodeException {
        if (buf.isReadable()) {
            throw new ControlDecodeException(Reason.TRAILING_BYTES,
                    what + ": " + buf.readableBytes() + " bytes after the last field");
        }
    }

    ControlDecodeException bad(String problem) {
        return new ControlDecodeException(Reason.BAD_VALUE, what + ": " + problem);
    }

    private void need(int bytes, String field) throws ControlDecodeException {
        if (buf.readableBytes() < bytes) {
            throw new ControlDecodeException(Reason.TRUNCATED, what + ": truncated: " + field + " needs " + bytes
                    + " bytes, " + buf.readableBytes() + " left");
        }
    }
}
