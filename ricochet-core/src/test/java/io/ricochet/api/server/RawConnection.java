package io.ricochet.api.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameCodec;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import io.ricochet.api.protocol.MalformedFrameException;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * A hand-driven API connection for tests: writes any bytes, reads frames one by one, sees the daemon close. Over
 * TCP by default, or over a Unix domain socket ({@link #unix(Path)}), whose reads have no timeout: a test using
 * one bounds its time itself.
 */
final class RawConnection implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 30_000;
    private final Socket socket;
    private final SocketChannel unixChannel;
    private final OutputStream out;
    private final DataInputStream in;

    /**
     * @param receiveBuffer the socket's receive buffer in bytes, or 0 for the system default
     */
    RawConnection(int port, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        unixChannel = null;
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    private RawConnection(SocketChannel unixChannel) {
        this.socket = null;
        this.unixChannel = unixChannel;
        out = Channels.newOutputStream(unixChannel);
        in = new DataInputStream(Channels.newInputStream(unixChannel));
    }

    /** A connection to the API's Unix domain socket at {@code path}. */
    static RawConnection unix(Path path) throws IOException {
        return new RawConnection(SocketChannel.open(UnixDomainSocketAddress.of(path)));
    }

    RawConnection(int port) throws IOException {
        this(port, 0);
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void send(ApiFrame frame) throws IOException {
        write(bytes(frame));
    }

    /** Says HELLO and checks the reply. */
    RawConnection hello() throws IOException, MalformedFrameException {
        return hello(ApiProtocol.VERSION);
    }

    /** Says HELLO in protocol {@code version} and checks that the daemon answers in it. */
    RawConnection hello(int version) throws IOException, MalformedFrameException {
        send(new ApiRequest.Hello(1, version, "raw"));
        assertEquals(version, assertInstanceOf(ApiReply.HelloReply.class, read()).version());
        return this;
    }

    /** Sends {@code request} and returns its reply (assumes no pushed frame comes first). */
    ApiReply call(ApiRequest request) throws IOException, MalformedFrameException {
        send(request);
        ApiReply reply = assertInstanceOf(ApiReply.class, read());
        assertEquals(request.requestId(), reply.requestId());
        return reply;
    }

    ApiFrame read() throws IOException, MalformedFrameException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return ApiFrameCodec.decode(Unpooled.wrappedBuffer(frame));
    }

    /** Reads until the daemon closes the connection (a reset counts); a read timeout fails instead. */
    boolean closedByPeer() throws IOException {
        try {
            while (in.read() >= 0) {
                continue;
            }
            return true;
        } catch (EOFException e) {
            return true;
        } catch (SocketException e) {
            return true;
        }
    }

    void shutdownOutput() throws IOException {
        if (socket != null) {
            socket.shutdownOutput();
        } else {
            unixChannel.shutdownOutput();
        }
    }

    static byte[] bytes(ApiFrame frame) {
        ByteBuf buf = Unpooled.buffer();
        ApiFrameCodec.encode(frame, buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
        } else {
            unixChannel.close();
        }
    }
}
