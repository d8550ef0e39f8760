package io.ricochet.bench.load;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.ricochet.control.link.GmsClient;
import io.ricochet.control.message.Join;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.PacketRefFlyweight;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench load}: a lightweight sender node for throughput experiments. It registers with the GMS as node
 * {@code N}, joins its groups (protocol 0, Ricochet), waits for each group's view (its multicast address), then
 * multicasts well-formed DATA frames round-robin over the groups at a paced rate for a fixed time. It runs no
 * protocol engine: it answers NAKs with RETRANSMIT from a bounded ring of what it sent (or GONE), drops the LEC
 * repairs receivers send it, announces each group's last seqno with SESSION, keeps answering NAKs for a short
 * linger, and leaves its groups. {@link #stop()} cuts the sending short and goes on with the rest. Authenticated as
 * a daemon is ({@link LoadConfig#auth}): every datagram it sends is sealed with the cluster key, each DATA exactly
 * the datagram a daemon sending that packet would send (so its trailer is the origin seal repairs carry), and every
 * one it receives is opened before it is read.
 */
public final class LoadGenerator {
    private static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(5);
    /** A batch may carry up to this many ticks' worth of packets when the loop woke late. */
    private static final int BATCH_SLACK = 4;

    private final LoadConfig config;
    private volatile SendLoop sending;
    private volatile boolean stopRequested;

    public LoadGenerator(LoadConfig config) {
        this.config = config;
    }

    /**
     * Ends sending early (e.g. on SIGTERM): {@link #run()} then announces the tails, lingers, leaves and reports as
     * after a full run. Callable from any thread, at any time.
     */
    public void stop() {
        stopRequested = true;
        SendLoop loop = sending;
        if (loop != null) {
            loop.stop();
        }
    }

    /** Runs the whole life of the generator and reports what it did. */
    public LoadReport run() throws Exception {
        NetworkInterface iface = NetworkInterface.getByName(config.iface());
        if (iface == null) {
            throw new SocketException("--interface " + config.iface() + ": no such network interface");
        }
        int[] groups = config.groups().ids();
        RetransmitRing ring = new RetransmitRing(groups.length, config.retransmitPerGroup(), config.frameLength());
        FrameSource source = new FrameSource(config.nodeId(), groups, config.payload(), ring, config.run());
        GroupViews views = new GroupViews(config.nodeId(), groups);
        // Two guards of one Authentication: one process clock for the seals, one replay filter for what arrives.
        LoadInbound inbound = new LoadInbound(new NakAnswerer(config.nodeId(), groups, ring), views::unicastOf,
                config.auth().newGuard(config.nodeId()));
        EventLoopGroup loopGroup = config.transport().newLoop();
        EventLoop loop = loopGroup.next();
        GmsClient gms = new GmsClient(config.nodeId(), config.unicast(), System.currentTimeMillis(),
                config.gms().partitions(), views, loopGroup, config.tls());
        try (LoadSocket socket = new LoadSocket(loopGroup, iface, config.unicast(), config.socketBytes(),
                config.multicastLoop(), config.gso(), config.auth().newGuard(config.nodeId()), inbound)) {
            onLoop(loop, () -> {
                inbound.answerOn(socket);
                return null;
            });
            gms.start();
            for (int group : groups) {
                gms.join(group, Join.PROTOCOL_RICOCHET);
            }
            InetSocketAddress[] targets = targets(groups,
                    views.awaitJoined(Duration.ofSeconds(config.joinTimeoutSeconds())));
            RateSchedule schedule = config.schedule();
            Pacer pacer = new Pacer(schedule, Pacer.maxBatchFor(schedule.peakRate(),
                    TimeUnit.MICROSECONDS.toNanos(config.tickMicros()), BATCH_SLACK));
            SendLoop send = new SendLoop(source, ring, socket, targets, pacer);
            sending = send;
            if (stopRequested) {
                send.stop();
            }
            System.err.printf("load node %d: authentication %s%n", config.nodeId(), config.authentication());
            System.err.printf("load node %d: sending to %d groups, schedule %s (packets/s:seconds)%n",
                    config.nodeId(), groups.length, schedule);
            long cpuStart = CpuClock.processNanos();
            send.start(loop, config.tickMicros()).get();
            long cpuEnd = CpuClock.processNanos();
            long sessions = onLoop(loop, () -> announceTails(source, socket, targets));
            Thread.sleep(config.lingerMillis());
            for (int group : groups) {
                gms.leave(group);
            }
            boolean left = views.awaitLeft(LEAVE_TIMEOUT);
            double cpu = CpuClock.secondsBetween(cpuStart, cpuEnd);
            return onLoop(loop, () -> report(loopGroup, pacer, send, source, sessions, inbound, cpu, left));
        } finally {
            gms.close();
            loopGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }

    private static InetSocketAddress[] targets(int[] groups, Map<Integer, InetSocketAddress> multicast) {
        InetSocketAddress[] targets = new InetSocketAddress[groups.length];
        for (int i = 0; i < groups.length; i++) {
            targets[i] = multicast.get(groups[i]);
        }
        return targets;
    }

    /** Multicasts each group's highest seqno (SESSION), so a receiver can discover a lost tail. */
    private long announceTails(FrameSource source, LoadSocket socket, InetSocketAddress[] targets) {
        PacketRefFlyweight session = new PacketRefFlyweight();
        byte[] frame = new byte[PacketRefFlyweight.LENGTH];
        int[] groups = source.groups();
        long sent = 0;
        for (int i = 0; i < groups.length; i++) {
            long highest = source.highestSeqno(i);
            if (highest >= 0) {
                int length = session.wrap(frame, 0).write(FrameType.SESSION, config.nodeId(), config.nodeId(),
                        groups[i], highest);
                socket.send(targets[i], frame, length);
                sent++;
            }
        }
        socket.flush();
        return sent;
    }

    private LoadReport report(EventLoopGroup loopGroup, Pacer pacer, SendLoop send, FrameSource source,
                              long sessions, LoadInbound inbound, double cpuSeconds, boolean left) {
        double seconds = send.sendNanos() / 1e9;
        NakAnswerer answers = inbound.answerer();
        RateSchedule schedule = config.schedule();
        Map<Integer, Long> sentPerGroup = new LinkedHashMap<>();
        int[] groups = source.groups();
        for (int i = 0; i < groups.length; i++) {
            sentPerGroup.put(groups[i], source.highestSeqno(i) + 1);
        }
        List<long[]> progress = new ArrayList<>();
        send.progress().samples().forEach(p -> progress.add(new long[] {p.epochMillis(), p.sent()}));
        return new LoadReport(config.nodeId(), config.unicast().getAddress().getHostAddress() + ":"
                + config.unicastPort(), config.groups().toString(),
                loopGroup instanceof EpollEventLoopGroup ? "epoll" : "nio", config.sending(), config.payload(),
                schedule.totalPackets() / schedule.totalSeconds(), schedule.totalSeconds(), schedule.toString(),
                send.startEpochMillis(), seconds, pacer.sent(), pacer.achievedRate(send.sendNanos()),
                send.behindAtEnd(), pacer.skipped(), pacer.maxBatch(), config.tickMicros(), send.writeStalls(),
                sessions,
                inbound.naks(), answers.retransmits(), answers.gones(), answers.refused() + inbound.naksFromStrangers(),
                inbound.repairs(),
                inbound.others(), inbound.unauthentic(), config.authentication(), cpuSeconds,
                cpuSeconds < 0 ? -1 : 100 * cpuSeconds / seconds, left,
                sentPerGroup, progress, send.progress().truncated());
    }

    private static <T> T onLoop(EventLoop loop, Callable<T> task) throws Exception {
        return loop.submit(task).get();
    }
}
