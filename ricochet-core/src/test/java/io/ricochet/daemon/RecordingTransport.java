package io.ricochet.daemon;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A {@link DaemonSockets} that records what the driver and the reconciler do with the sockets. */
final class RecordingTransport implements DaemonSockets {
    record Sent(InetSocketAddress to, byte[] frame) {
        int type() {
            return frame[3];
        }
    }

    final List<Sent> sent = new ArrayList<>();
    final List<String> sockets = new ArrayList<>();
    int flushes;

    @Override
    public void send(InetSocketAddress to, int destination, byte[] frame, int offset, int length) {
        sent.add(new Sent(to, Arrays.copyOfRange(frame, offset, offset + length)));
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public void joinGroup(int group, InetSocketAddress multicast) {
        sockets.add("join " + group + " " + multicast.getPort());
    }

    @Override
    public void leaveGroup(int group) {
        sockets.add("leave " + group);
    }
}
