package io.ricochet.bench.system;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.tls.TestCertificates;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;

/**
 * An attacker's control-protocol client: raw frames over plain TCP or over TLS 1.3 with whatever certificate it
 * holds, built with the JDK alone (it shares nothing with the GMS or the daemon but the frame codec).
 */
final class ControlForger implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 20_000;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private boolean closedBeforeSend;

    private ControlForger(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(READ_TIMEOUT_MS);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Plain TCP, no TLS at all. */
    static ControlForger plaintext(InetSocketAddress server) throws IOException {
        return new ControlForger(new Socket(server.getAddress(), server.getPort()));
    }

    /** TLS 1.3 with {@code certDir/name.pem} and its key, trusting the CA {@code trustDir/ca.pem}. */
    static ControlForger tls(Path certDir, String name, Path trustDir, InetSocketAddress server) throws IOException {
        return new ControlForger(TestCertificates.socket(certDir, name, trustDir, server));
    }

    /**
     * Writes {@code message}. A server that refused the handshake may have closed the connection already (a reset,
     * a broken pipe, a TLS alert): that is not an error here, and {@link #receive} then returns null.
     */
    void send(ControlMessage message) {
        ByteBuf buf = Unpooled.buffer();
        ControlCodec.encode(message, buf);
        try {
            out.write(ByteBufUtil.getBytes(buf));
            out.flush();
        } catch (IOException e) {
            closedBeforeSend = true;
        }
    }

    /**
     * The next message other than a GMS_STATUS (the leader's term and commit index, pushed after SERVING and as
     * it moves), or null once the server has closed the connection (an alert or a reset count too).
     */
    ControlMessage receive() throws ControlDecodeException {
        ControlMessage message = read();
        while (message instanceof io.ricochet.control.message.GmsStatus) {
            message = read();
        }
        return message;
    }

    private ControlMessage read() throws ControlDecodeException {
        if (closedBeforeSend) {
            return null;
        }
        try {
            int length = in.readInt();
            byte[] body = new byte[length];
            in.readFully(body);
            return ControlCodec.decode(Unpooled.wrappedBuffer(body));
        } catch (EOFException e) {
            return null;
        } catch (IOException e) {
            if (e instanceof java.net.SocketTimeoutException) {
                throw new AssertionError("the GMS neither answered nor closed within " + READ_TIMEOUT_MS + " ms");
            }
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
