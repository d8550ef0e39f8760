package io.ricochet.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiProtocol;
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
        if (length < ApiProtocol.HEADER_LENGTH || length > ApiProtocol.MAX_INBOUND_FRAME_LENGTH) {
            throw new MalformedFrameException(0, "frame length " + Integer.toUnsignedString(length)
                    + " out of range " + ApiProtocol.HEADER_LENGTH + ".." + ApiProtocol.MAX_INBOUND_FRAME_LENGTH);
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        return ApiFrameCodec.decode(Unpooled.wrappedBuffer(frame));
    }

    @Override
    public void close() throws IOException {
        connection.close();
    }
}
