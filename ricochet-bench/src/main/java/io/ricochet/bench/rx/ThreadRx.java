package io.ricochet.bench.rx;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;

/**
 * A dedicated receive thread: blocking {@link DatagramChannel#receive} into one direct buffer, each datagram copied
 * into a byte array slot (as the daemon copies into its receive buffer). One system call per datagram: the JDK has
 * no recvmmsg.
 */
final class ThreadRx extends RxPath {
    private final DatagramChannel channel;
    private final Thread thread;

    ThreadRx(InetSocketAddress group, NetworkInterface iface, int rcvbuf) throws IOException {
        channel = DatagramChannel.open(StandardProtocolFamily.INET)
                .setOption(StandardSocketOptions.SO_REUSEADDR, true)
                .setOption(StandardSocketOptions.SO_RCVBUF, rcvbuf)
                .bind(new InetSocketAddress(group.getPort()));
        channel.join(group.getAddress(), iface);
        thread = new Thread(this::run, "rx-thread");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        onReadingThread();
        ByteBuffer buffer = ByteBuffer.allocateDirect(65_536);
        byte[] slot = new byte[65_536];
        try {
            while (true) {
                buffer.clear();
                channel.receive(buffer);
                buffer.flip();
                buffer.get(slot, 0, buffer.remaining());
                countOne();
            }
        } catch (ClosedChannelException e) {
            // closed: done
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        channel.close();
        thread.join(5_000);
    }
}
