package io.ricochet.fd;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.Serving;
import io.ricochet.control.message.Watch;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for the leader of GMS partition 0 of 1, on 127.0.0.1 (an ephemeral port), in plaintext, with plain
 * blocking sockets speaking {@link ControlCodec} frames: it greets every session with {@code SERVING(0, 1, 1)} and
 * records every message each session sends. A detector opens two sessions to it: one for its verdicts, one that
 * starts with WATCH ({@link #watchSessions()}), on which the test sends watch lists.
 */
final class FakeGms implements AutoCloseable {
    private final ServerSocket server;
    private final List<Session> sessions = new CopyOnWriteArrayList<>();

    /** One accepted session. */
    static final class Session {
        private final Socket socket;
        final List<ControlMessage> received = new CopyOnWriteArrayList<>();

        private Session(Socket socket) {
            this.socket = socket;
        }

        /** Writes {@code message} as one frame. */
        synchronized void send(ControlMessage message) {
            ByteBuf buf = Unpooled.buffer();
            try {
                ControlCodec.encode(message, buf);
                socket.getOutputStream().write(ByteBufUtil.getBytes(buf));
                socket.getOutputStream().flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                buf.release();
            }
        }

        /** Ends the session, as a leader that crashed or stepped down would. */
        void close() {
            closeQuietly(socket);
        }

        boolean isWatch() {
            return !received.isEmpty() && received.get(0) instanceof Watch;
        }
    }

    FakeGms() {
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::acceptLoop, "fake-gms-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** The sessions that began with WATCH, oldest first. */
    List<Session> watchSessions() {
        return sessions.stream().filter(Session::isWatch).toList();
    }

    /** The sessions that did not begin with WATCH (the verdict sessions), oldest first. */
    List<Session> verdictSessions() {
        return sessions.stream().filter(s -> !s.isWatch()).toList();
    }

    /** Every message of the sessions that did not begin with WATCH: the verdicts. */
    List<ControlMessage> verdicts() {
        List<ControlMessage> verdicts = new ArrayList<>();
        for (Session s : sessions) {
            if (!s.isWatch()) {
                verdicts.addAll(s.received);
            }
        }
        return verdicts;
    }

    @Override
    public void close() {
        closeQuietly(server);
        for (Session s : sessions) {
            s.close();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return;
            }
            Session session = new Session(socket);
            try {
                session.send(new Serving(0, 1, 1));
            } catch (UncheckedIOException e) {
                session.close();
                continue;
            }
            sessions.add(session);
            Thread reader = new Thread(() -> read(session), "fake-gms-session");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private static void read(Session session) {
        try (DataInputStream in = new DataInputStream(session.socket.getInputStream())) {
            while (true) {
                byte[] frame = new byte[in.readInt()];
                in.readFully(frame);
                session.received.add(ControlCodec.decode(Unpooled.wrappedBuffer(frame)));
            }
        } catch (IOException | ControlDecodeException e) {
            session.close();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // nothing to do
        }
    }
}
