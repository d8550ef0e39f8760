package io.ricochet.fd;

import io.ricochet.wire.HeartbeatFlyweight;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for a daemon's unicast socket: a plain UDP socket on loopback that answers each HEARTBEAT with
 * {@link HeartbeatFlyweight#ackInto}, as the daemon does, while {@link #answer(boolean) answering}.
 */
final class FakeDaemon implements AutoCloseable {
    private final int nodeId;
    private final DatagramSocket socket;
    private final Thread thread;
    private final AtomicLong heartbeats = new AtomicLong();
    private volatile boolean answering = true;
    private volatile boolean closed;

    FakeDaemon(int nodeId) throws IOException {
        this.nodeId = nodeId;
        this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.socket.setSoTimeout(50);
        this.thread = new Thread(this::serve, "fake-daemon-" + nodeId);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    Target target() {
        return Target.daemon(nodeId, (InetSocketAddress) socket.getLocalSocketAddress());
    }

    void answer(boolean on) {
        answering = on;
    }

    /** HEARTBEATs received so far, answered or not. */
    long heartbeats() {
        return heartbeats.get();
    }

    private void serve() {
        byte[] rx = new byte[2048];
        byte[] tx = new byte[HeartbeatFlyweight.LENGTH];
        DatagramPacket packet = new DatagramPacket(rx, rx.length);
        while (!closed) {
            try {
                packet.setLength(rx.length);
                socket.receive(packet);
                int length = HeartbeatFlyweight.ackInto(rx, 0, packet.getLength(), nodeId, tx, 0);
                if (length > 0) {
                    heartbeats.incrementAndGet();
                    if (answering) {
                        socket.send(new DatagramPacket(tx, length, packet.getSocketAddress()));
                    }
                }
            } catch (SocketTimeoutException e) {
                // poll the closed flag
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException("fake daemon " + nodeId + " failed", e);
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        socket.close();
        thread.join();
    }
}
