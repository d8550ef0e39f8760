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
 * each HEARTBEAT_ACK is handed to the detector with the send time it echoes, which the detector checks against the
 * round it names (an ack from an earlier run of this detector carries another time). Every method runs on the event
 * loop.
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
            long lateBefore = detector.lateTicks();
            sendRound(detector.onTick(nowNs), nowNs);
            if (detector.lateTicks() != lateBefore) {
                counters.increment(FdCounter.LATE_TICKS);
                LOG.warn("heartbeat tick ran more than two intervals late: this detector was starved, so nobody is "
                        + "judged on the round that closed");
            }
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
        for (Ping<Target> ping : pings) {
            int length = heartbeat.write(FrameType.HEARTBEAT, wireId, ping.sequence(), nowNs);
            sender.write(channel, tx, length, ping.address().address(), ping.address().wireId());
            counters.increment(FdCounter.HEARTBEATS_SENT);
        }
        channel.flush();
    }

    @Override
    public void onAck(int source, long sequence, long sendTimeNs) {
        switch (detector.onAck(source, sequence, sendTimeNs, clockNs.getAsLong())) {
            case ACCEPTED -> counters.increment(FdCounter.ACKS_ACCEPTED);
            case LATE -> counters.increment(FdCounter.ACKS_LATE);
            case DUPLICATE -> counters.increment(FdCounter.ACKS_DUPLICATE);
            case UNKNOWN_MEMBER, UNKNOWN_SEQUENCE -> counters.increment(FdCounter.ACKS_UNKNOWN);
        }
    }
}
