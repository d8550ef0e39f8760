package io.ricochet.bench.system;

import io.ricochet.auth.DatagramAuth;
import io.ricochet.wire.HeaderFlyweight;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** What an eavesdropper on loopback sees of a group: every datagram multicast to it, as sent. */
final class Sniffer {
    private Sniffer() {
    }

    /** A thread that keeps every datagram multicast to {@code group} (on loopback) while {@code on} holds. */
    static Thread start(InetSocketAddress group, AtomicBoolean on, List<byte[]> into) throws IOException {
        MulticastSocket socket = new MulticastSocket(group.getPort());
        socket.joinGroup(group, NetworkInterface.getByName("lo"));
        socket.setSoTimeout(100);
        Thread sniffer = new Thread(() -> {
            try (socket) {
                byte[] in = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
                while (on.get()) {
                    DatagramPacket packet = new DatagramPacket(in, in.length);
                    try {
                        socket.receive(packet);
                    } catch (SocketTimeoutException e) {
                        continue;
                    }
                    if (packet.getLength() >= HeaderFlyweight.HEADER_LENGTH + DatagramAuth.TRAILER_LENGTH) {
                        into.add(Arrays.copyOf(in, packet.getLength()));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "sniffer");
        sniffer.start();
        return sniffer;
    }
}
