package io.ricochet.bench.gms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.control.codec.ControlCodec;
import io.ricochet.control.codec.ControlDecodeException;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.Join;
import io.ricochet.control.message.Leave;
import io.ricochet.control.message.MemberEvent;
import io.ricochet.control.message.Register;
import io.ricochet.control.message.Serving;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients that make a partition commit membership changes as fast as it can: each registers as a node of its own
 * and then keeps {@code window} JOIN / LEAVE requests outstanding on its own groups (JOIN g, LEAVE g, JOIN g + 1,
 * ...), each answered by one MEMBER_EVENT to the node once committed. {@link #committed} counts those events.
 */
final class ChangeLoad implements AutoCloseable {
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong committed = new AtomicLong();
    private volatile boolean running = true;

    ChangeLoad(InetSocketAddress leader, int clients, int window) throws IOException {
        for (int c = 1; c <= clients; c++) {
            Socket socket = new Socket();
            socket.connect(leader, 2000);
            socket.setTcpNoDelay(true);
            sockets.add(socket);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            try {
                if (!(ReplicaProcesses.read(in) instanceof Serving)) {
                    throw new IOException(leader + " is not the leader");
                }
            } catch (ControlDecodeException e) {
                throw new IOException(e);
            }
            int node = 100_000 + c;
            Semaphore outstanding = new Semaphore(window);
            threads.add(new Thread(() -> write(socket, node, outstanding), "changes-w" + c));
            threads.add(new Thread(() -> read(in, node, outstanding), "changes-r" + c));
        }
        threads.forEach(Thread::start);
    }

    long committed() {
        return committed.get();
    }

    private void write(Socket socket, int node, Semaphore outstanding) {
        try {
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            send(out, new Register(node, new InetSocketAddress("127.0.0.1", 20_000 + node % 10_000), 1));
            out.flush();
            int base = node * 1000;
            for (long i = 0; running; i++) {
                outstanding.acquire();
                int group = base + (int) (i / 2 % 1000);
                send(out, i % 2 == 0 ? new Join(group, node, Join.PROTOCOL_RICOCHET) : new Leave(group, node));
                if (outstanding.availablePermits() == 0 || i % 16 == 15) {
                    out.flush();
                }
            }
        } catch (IOException e) {
            // The socket closed: the run is over, or the replica died.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void read(DataInputStream in, int node, Semaphore outstanding) {
        try {
            while (running) {
                ControlMessage m = ReplicaProcesses.read(in);
                if (m instanceof MemberEvent e && e.nodeId() == node) {
                    committed.incrementAndGet();
                    outstanding.release();
                }
            }
        } catch (IOException | ControlDecodeException e) {
            // Closed.
        }
    }

    private static void send(OutputStream out, ControlMessage message) throws IOException {
        ByteBuf buf = Unpooled.buffer();
        ControlCodec.encode(message, buf);
        out.write(ByteBufUtil.getBytes(buf));
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // Closing anyway.
            }
        }
        for (Thread t : threads) {
            t.interrupt();
            t.join(2000);
        }
    }
}
