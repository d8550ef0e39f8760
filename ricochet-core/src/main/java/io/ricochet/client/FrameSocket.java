package io.ricochet.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiFrameType;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.MalformedFrameException;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Whole frames over a blocking connection, TCP or Unix domain socket: any thread may write, one reader thread
 * reads.
 */
final class FrameSocket implements Closeable {
    private final Closeable connection;
    private final DataInputStream in;
    private final OutputStream out;
    /** Bound on the length field of frames read; raised after a version 3 HELLO_REPLY. */
    private volatile int inboundLimit = ApiProtocol.MAX_INBOUND_FRAME_LENGTH;
    /** A payload up to this size is copied behind its header and written in one call; a larger one follows it. */
    private static final int COPY_LIMIT = 64 * 1024;

    /** Frames over {@code in} and {@code out}; {@link #close()} closes {@code connection}. */
    FrameSocket(InputStream in, OutputStream out, Closeable connection) {
        this.connection = connection;
        this.in = new DataInputStream(new BufferedInputStream(in));
        this.out = out;
    }

    /** Frames over a connected TCP socket. */
    static FrameSocket of(Socket socket) throws IOException {
        return new FrameSocket(socket.getInputStream(), socket.getOutputStream(), socket);
    }

    /**
     * Frames over a connected, blocking socket channel (a Unix domain socket). The streams call the channel
     * directly: those of {@code Channels.newInputStream}/{@code newOutputStream} share one lock, so a write would
     * wait for the reader thread's blocked read.
     */
    static FrameSocket of(SocketChannel channel) {
        InputStream in = new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                return channel.read(ByteBuffer.wrap(b, off, len));
            }
        };
        OutputStream out = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        };
        return new FrameSocket(in, out, channel);
    }

    /** Sets the bound on the length field of frames read ({@link ApiProtocol#inboundFrameLimit}). */
    void inboundLimit(int limit) {
        inboundLimit = limit;
    }

    /**
     * Writes a SEND or TRY_SEND frame of {@code payload}'s remaining bytes, leaving its position as it was. A small
     * payload goes in one write with its header; a larger one is written from where it is (a heap buffer's array
     * as it stands, a direct buffer in 64 KiB pieces), never copied whole. Frames of concurrent writers never
     * interleave.
     */
    synchronized void writeSend(ApiFrameType type, int requestId, int group, ByteBuffer payload) throws IOException {
        int length = payload.remaining();
        int headerBytes = ApiProtocol.LENGTH_FIELD_LENGTH + ApiProtocol.SEND_OVERHEAD;
        byte[] frame = new byte[headerBytes + Math.min(length, COPY_LIMIT)];
        ByteBuffer header = ByteBuffer.wrap(frame);
        header.putInt(ApiProtocol.SEND_OVERHEAD + length).put((byte) type.wire()).putInt(requestId).putInt(group);
        ByteBuffer rest = payload.duplicate();
        if (length <= COPY_LIMIT) {
            rest.get(frame, headerBytes, length);
            out.write(frame, 0, headerBytes + length);
        } else if (rest.hasArray()) {
            out.write(frame, 0, headerBytes);
            out.write(rest.array(), rest.arrayOffset() + rest.position(), length);
        } else {
            out.write(frame, 0, headerBytes);
            while (rest.hasRemaining()) {
                int piece = Math.min(rest.remaining(), COPY_LIMIT);
                rest.get(frame, 0, piece);
                out.write(frame, 0, piece);
            }
        }
        out.flush();
    }

    /** Writes one frame in a single call, so frames of concurrent writers never interleave. */
    synchronized void write(ApiFrame frame) throws IOException {
        int length = ApiFrameCodec.encodedLength(frame);
        ByteBuf bytes = Unpooled.buffer(length, length);
        ApiFrameCodec.encode(frame, bytes);
        out.write(bytes.array(), bytes.arrayOffset(), length);
        out.flush();
    }

    /**
     * Blocks until a whole frame has arrived.
     *
     * @throws IOException             if the connection fails or ends (EOFException)
     * @throws MalformedFrameException if the daemon sent something that is not a frame
     */
    ApiFrame read() throws IOException, MalformedFrameException {
        int length = in.readInt();
        int limit = inboundLimit;
        if (length < ApiProtocol.HEADER_LENGTH || length > limit) {
            throw new MalformedFrameException(0, "frame length " + Integer.toUnsignedString(length)
                    + " out of range " + ApiProtocol.HEADER_LENGTH + ".." + limit);
        }
        int type = in.readUnsignedByte();
        if (type == ApiFrameType.DELIVER.wire() && length >= ApiProtocol.DELIVER_OVERHEAD) {
            return readDeliver(length);
        }
        byte[] frame = new byte[length];
        frame[0] = (byte) type;
        in.readFully(frame, 1, length - 1);
        return ApiFrameCodec.decode(Unpooled.wrappedBuffer(frame));
    }

    /** A DELIVER read field by field, its payload straight into the array the delivery keeps: its one copy. */
    private ApiPush.Deliver readDeliver(int length) throws IOException, MalformedFrameException {
        int requestId = in.readInt();
        int origin = in.readInt();
        int group = in.readInt();
        long seqno = in.readLong();
        byte[] payload = new byte[length - ApiProtocol.DELIVER_OVERHEAD];
        in.readFully(payload);
        if (requestId != 0) {
            throw new MalformedFrameException(0, "DELIVER with request id " + requestId + ", must be 0");
        }
        if (seqno < 0) {
            throw new MalformedFrameException(0, "negative sequence number " + seqno);
        }
        return new ApiPush.Deliver(origin, group, seqno, payload);
    }

    @Override
    public void close() throws IOException {
        connection.close();
    }
}
