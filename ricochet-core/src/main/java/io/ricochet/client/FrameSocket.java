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
import java.io.OutputStream;
import java.net.Socket;

/** Whole frames over a blocking socket: any thread may write, one reader thread reads. */
final class FrameSocket implements Closeable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    FrameSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = socket.getOutputStream();
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
        socket.close();
    }
}
