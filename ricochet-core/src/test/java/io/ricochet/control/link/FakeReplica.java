package io.ricochet.control.link;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.Redirect;
import io.ricochet.control.message.Serving;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A stand-in for one GMS replica on 127.0.0.1 (an ephemeral port), with plain blocking sockets: it greets every
 * session it accepts with what {@code greeting} gives at that moment (null: says nothing); after a REDIRECT it
 * closes the session, after anything else it records every message the client sends. {@link #close} stops it as a
 * crash would (the port then refuses connections).
 */
public final class FakeReplica implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> sessions = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    /** Every message clients sent on the sessions after the greeting, in arrival order. */
    public final List<ControlMessage> received = new CopyOnWriteArrayList<>();
    private volatile Supplier<ControlMessage> greeting;

    /** A replica greeting every session with what {@code greeting} gives (null: says nothing). */
    public FakeReplica(Supplier<ControlMessage> greeting) {
        this.greeting = greeting;
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::acceptLoop, "fake-replica-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A leader of partition 0 of 1, in term 1. */
    public static FakeReplica leader() {
        return new FakeReplica(() -> new Serving(0, 1, 1));
    }

    /** A follower that knows {@code leader} leads. */
    public static FakeReplica follower(FakeReplica leader) {
        return new FakeReplica(() -> Redirect.to(leader.address()));
    }

    /** Where the replica listens: 127.0.0.1 and its ephemeral port. */
    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** Sessions accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    /** From now on, greets new sessions with what {@code next} gives. */
    public void greetWith(Supplier<ControlMessage> next) {
        this.greeting = next;
    }

    /** Sends {@code message} on every open session. */
    public void sendToAll(ControlMessage message) {
        for (Socket s : sessions) {
            write(s, message);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        for (Socket s : sessions) {
            closeQuietly(s);
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket session;
            try {
                session = server.accept();
            } catch (IOException e) {
                return;
            }
            accepted.incrementAndGet();
            // Listed before the greeting: a test that closes this replica once the link is up must close this session.
            sessions.add(session);
            if (server.isClosed()) {
                closeQuietly(session); // closed while this session was being accepted
                return;
            }
            ControlMessage hello = greeting.get();
            if (hello != null && (!write(session, hello) || hello instanceof Redirect)) {
                sessions.remove(session);
                closeQuietly(session);
                continue;
            }
            Thread reader = new Thread(() -> read(session), "fake-replica-session");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void read(Socket session) {
        try (DataInputStream in = new DataInputStream(session.getInputStream())) {
            while (true) {
                byte[] frame = new byte[in.readInt()];
                in.readFully(frame);
                received.add(ControlCodec.decode(Unpooled.wrappedBuffer(frame)));
            }
        } catch (IOException | ControlDecodeException e) {
            sessions.remove(session);
            closeQuietly(session);
        }
    }

    private static boolean write(Socket session, ControlMessage message) {
        ByteBuf buf = Unpooled.buffer();
        try {
            ControlCodec.encode(message, buf);
            session.getOutputStream().write(ByteBufUtil.getBytes(buf));
            session.getOutputStream().flush();
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            buf.release();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
