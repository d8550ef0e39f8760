package io.ricochet.fd;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeartbeatFlyweight;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link FailureDetector} on the channel's event loop: one scheduled task at the detector's next tick,
 * re-armed after each tick, reads the clock once and sends that round's HEARTBEATs (send time = that reading);
 * each HEARTBEAT_ACK is handed to the detector. Every method runs on the event loop.
 *
 * <p>An ack is also checked against the echoed send time: one that names the open round but not its send time does
 * not answer a ping of this detector (it answers one of an earlier run that reached the same sequence number) and
 * counts as unknown.
 */
final class DetectorDriver implements AckSink {
    private static final Logger LOG = LoggerFactory.getLogger(DetectorDriver.class);

    private final int wireId;
    private final FailureDetector<Target> detector;
    private final FrameSender sender;
    private final FdCounters counters;
    private final LongSupplier clockNs;
    private final byte[] tx = new byte[HeartbeatFlyweight.LENGTH];
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight().wrap(tx, 0);
    private Channel channel;
    private ScheduledFuture<?> nextTick;
    private long roundSendTimeNs;
    private boolean stopped;

    DetectorDriver(int wireId, FailureDetector<Target> detector, FrameSender sender, FdCounters counters,
                   LongSupplier clockNs) {
        this.wireId = wireId;
        this.detector = detector;
        this.sender = sender;
        this.counters = counters;
        this.clockNs = clockNs;
    }

    /** Runs the first round now and keeps ticking until {@link #stop()}. */
    void start(Channel channel) {
        this.channel = channel;
        tick();
    }

    void stop() {
        stopped = true;
        if (nextTick != null) {
            nextTick.cancel(false);
        }
    }

    private void tick() {
        if (stopped) {
            return;
        }
        long nowNs = clockNs.getAsLong();
        long delayNs;
        try {
            sendRound(detector.onTick(nowNs), nowNs);
            delayNs = Math.max(0, detector.nextTickNs() - nowNs);
        } catch (RuntimeException e) {
            counters.increment(FdCounter.HANDLER_ERRORS);
            LOG.error("heartbeat round failed; trying again next interval", e);
            delayNs = detector.intervalNs();
        }
        nextTick = channel.eventLoop().schedule(this::tick, delayNs, TimeUnit.NANOSECONDS);
    }

    private void sendRound(List<Ping<Target>> pings, long nowNs) {
        if (pings.isEmpty()) {
            return;
        }
        roundSendTimeNs = nowNs;
        for (Ping<Target> ping : pings) {
            int length = heartbeat.write(FrameType.HEARTBEAT, wireId, ping.sequence(), nowNs);
            sender.write(channel, tx, length, ping.address().address());
            counters.increment(FdCounter.HEARTBEATS_SENT);
        }
        channel.flush();
    }

    @Override
    public void onAck(int source, long sequence, long sendTimeNs) {
        if (sequence == detector.sequence() && sendTimeNs != roundSendTimeNs) {
            counters.increment(FdCounter.ACKS_UNKNOWN);
            return;
        }
        switch (detector.onAck(source, sequence, clockNs.getAsLong())) {
            case ACCEPTED -> counters.increment(FdCounter.ACKS_ACCEPTED);
            case LATE -> counters.increment(FdCounter.ACKS_LATE);
            case DUPLICATE -> counters.increment(FdCounter.ACKS_DUPLICATE);
            case UNKNOWN_MEMBER, UNKNOWN_SEQUENCE -> counters.increment(FdCounter.ACKS_UNKNOWN);
        }
    }
}
