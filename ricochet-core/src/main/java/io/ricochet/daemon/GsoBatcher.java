package io.ricochet.daemon;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;

/**
 * Gathers the datagrams a socket sends between two flushes into UDP GSO sends (Linux's UDP_SEGMENT): datagrams of
 * one length to one address go out as one send of up to {@link #MAX_SEGMENTS} segments, which the kernel carries
 * through its sending stack (and a veth pair or bridge) once and splits into the original datagrams at the latest
 * at the receiving socket, which reads them one by one as if each had been sent alone. A NIC with UDP segmentation
 * offload splits them on the wire; without, the kernel does it before the driver.
 *
 * <p>Datagrams to one address keep their order. Within a flush, datagrams to different addresses may leave in
 * another order than they were queued: a repair to one member and one to another are independent. Runs are kept
 * open for up to {@link #MAX_OPEN} addresses at once; one more closes them all. A datagram longer than half of
 * {@link #MAX_RUN_BYTES} has no second segment to share a send with and goes alone. Use it on the socket's event
 * loop only; call {@link #endRuns()} before the channel's flush.
 */
public final class GsoBatcher {
    /** The kernel's limit of segments in one GSO send (UDP_MAX_SEGMENTS). */
    public static final int MAX_SEGMENTS = 64;
    /** Payload bytes of one GSO send: an IP packet's 65 535 bytes less its headers, with room to spare. */
    public static final int MAX_RUN_BYTES = 65_000;
    /** Addresses with a run open at once. */
    static final int MAX_OPEN = 16;
    /** A run's first buffer holds this many segments; it grows as the run does. */
    private static final int FIRST_SEGMENTS = 8;

    private final Channel channel;
    private final InetSocketAddress[] to = new InetSocketAddress[MAX_OPEN];
    private final ByteBuf[] run = new ByteBuf[MAX_OPEN];
    private final int[] segment = new int[MAX_OPEN];
    private final int[] segments = new int[MAX_OPEN];
    private int open;
    private long runs;
    private long runDatagrams;

    /** @param channel an epoll datagram channel where {@link #unavailable(Channel)} is null */
    public GsoBatcher(Channel channel) {
        String why = unavailable(channel);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        this.channel = channel;
    }

    /** Why GSO cannot be used on {@code channel}, or null if it can. */
    public static String unavailable(Channel channel) {
        return unavailable(channel instanceof EpollDatagramChannel);
    }

    /** Why GSO cannot be used on a socket of this transport (epoll, or another), or null if it can. */
    public static String unavailable(boolean epoll) {
        if (!epoll) {
            return "UDP GSO needs the epoll transport (Linux)";
        }
        return SegmentedDatagramPacket.isSupported() ? null
                : "this kernel or Netty's native library does not offer UDP GSO (UDP_SEGMENT, Linux 4.18+)";
    }

    /** Queues a copy of {@code length} bytes of {@code src} from {@code offset} as one datagram to {@code dest}. */
    public void add(InetSocketAddress dest, byte[] src, int offset, int length) {
        int i = indexOf(dest);
        if (i >= 0 && (segment[i] != length || segments[i] == MAX_SEGMENTS
                || run[i].readableBytes() + length > MAX_RUN_BYTES)) {
            end(i);
            i = -1;
        }
        if (2 * length > MAX_RUN_BYTES) {
            ByteBuf alone = channel.alloc().directBuffer(length);
            alone.writeBytes(src, offset, length);
            write(new DatagramPacket(alone, dest), 1);
            return;
        }
        if (i < 0) {
            if (open == MAX_OPEN) {
                endRuns();
            }
            i = open++;
            to[i] = dest;
            segment[i] = length;
            segments[i] = 0;
            run[i] = channel.alloc().directBuffer(Math.min(MAX_RUN_BYTES, FIRST_SEGMENTS * length), MAX_RUN_BYTES);
        }
        run[i].writeBytes(src, offset, length);
        segments[i]++;
    }

    /** Queues every open run on the channel; flush the channel after. */
    public void endRuns() {
        for (int i = 0; i < open; i++) {
            queue(i);
        }
        open = 0;
    }

    /** Drops the open runs unsent (the socket is closing). */
    public void discard() {
        for (int i = 0; i < open; i++) {
            run[i].release();
            clear(i);
        }
        open = 0;
    }

    /** GSO sends written to the channel so far: runs of more than one datagram. */
    public long runs() {
        return runs;
    }

    /** Datagrams in those runs. */
    public long runDatagrams() {
        return runDatagrams;
    }

    private int indexOf(InetSocketAddress dest) {
        for (int i = 0; i < open; i++) {
            if (to[i].equals(dest)) {
                return i;
            }
        }
        return -1;
    }

    /** Queues run {@code i} and closes its slot, moving the last open run into it. */
    private void end(int i) {
        queue(i);
        int last = --open;
        if (i != last) {
            to[i] = to[last];
            run[i] = run[last];
            segment[i] = segment[last];
            segments[i] = segments[last];
        }
        clear(last);
    }

    private void queue(int i) {
        Object packet = segments[i] == 1 ? new DatagramPacket(run[i], to[i])
                : new SegmentedDatagramPacket(run[i], segment[i], to[i]);
        write(packet, segments[i]);
        clear(i);
    }

    private void write(Object packet, int count) {
        channel.write(packet, channel.voidPromise());
        if (count > 1) {
            runs++;
            runDatagrams += count;
        }
    }

    private void clear(int i) {
        to[i] = null;
        run[i] = null;
    }
}
