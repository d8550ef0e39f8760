package io.ricochet.bench.system;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The system tests' JVM runs in a namespace of its own (scripts/lib/netns/bin/java): loopback is its only network
 * interface, and multicast works on it. If this fails, no other system test can be trusted to stay off the host.
 */
class NamespaceSystemTest {
    /** Fails unless this JVM's only network interface is loopback: no system test may run anywhere else. */
    static void requirePrivateNamespace() throws Exception {
        List<String> names = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .map(NetworkInterface::getName).toList();
        assertEquals(List.of("lo"), names, "the system tests must run inside scripts/lib/netns/bin/java");
    }

    @Test
    void shouldSeeOnlyLoopback() throws Exception {
        requirePrivateNamespace();
    }

    @Test
    void shouldCarryMulticastOnLoopback() throws Exception {
        NetworkInterface lo = NetworkInterface.getByName("lo");
        InetSocketAddress group = new InetSocketAddress(InetAddress.getByName("239.255.1.1"), 9999);
        try (MulticastSocket receiver = new MulticastSocket(group.getPort());
             MulticastSocket sender = new MulticastSocket()) {
            receiver.joinGroup(group, lo);
            receiver.setSoTimeout(5000);
            sender.setNetworkInterface(lo);
            sender.setTimeToLive(1);
            byte[] message = "ricochet".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            sender.send(new DatagramPacket(message, message.length, group));
            DatagramPacket got = new DatagramPacket(new byte[64], 64);
            receiver.receive(got);
            assertArrayEquals(message, java.util.Arrays.copyOf(got.getData(), got.getLength()));
        }
    }
}
