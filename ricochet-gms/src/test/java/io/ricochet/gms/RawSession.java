package io.ricochet.gms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;

/** A blocking TCP connection to a GMS partition, speaking raw frames: for tests of what the server sends back. */
final class RawSession implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 10_000;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawSession(InetSocketAddress server) throws IOException {
        this(new Socket(server.getAddress(), server.getPort()));
    }

    /** Over {@code socket}, connected (a TLS socket, say). */
    RawSession(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(READ_TIMEOUT_MS);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    void send(ControlMessage message) throws IOException {
        ByteBuf buf = Unpooled.buffer();
        ControlCodec.encode(message, buf);
        sendBytes(ByteBufUtil.getBytes(buf));
    }

    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next message (waiting up to 10 s), or null at end of stream. */
    ControlMessage receive() throws IOException, ControlDecodeException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            return null;
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return ControlCodec.decode(Unpooled.wrappedBuffer(body));
    }

    /** Reads until a message of {@code type} arrives. */
    <T extends ControlMessage> T receive(Class<T> type) throws IOException, ControlDecodeException {
        while (true) {
            ControlMessage message = receive();
            if (message == null) {
                throw new EOFException("connection closed before a " + type.getSimpleName() + " arrived");
            }
            if (type.isInstance(message)) {
                return type.cast(message);
            }
        }
    }

    /** Whether the server closed the connection (reads and discards until end of stream). */
    boolean isClosedByServer() throws IOException, ControlDecodeException {
        try {
            while (receive() != null) {
                continue;
            }
        } catch (SocketException reset) {
            // A reset is a close too.
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
