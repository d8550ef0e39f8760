package io.ricochet.daemon;

import io.ricochet.auth.Authentication;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.control.verdict.DetectorAddresses;
import io.ricochet.support.RateLimitedLog;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.HeartbeatFlyweight;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the rack failure detector's heartbeats on a socket and a thread of their own, so a daemon whose engine
 * thread is busy (a burst, a long batch, a starved CPU) is not declared failed because its answers queue behind
 * data (docs/design/failure-detection.md). It still tells a wedged daemon from a live one: the engine thread marks
 * its progress ({@link #engineAlive}) every few hundred milliseconds, and a heartbeat arriving after
 * {@code stallNs} without progress goes unanswered (counted), so the detector sees the failure.
 *
 * <p>Where an ACK goes: with {@code failure-detectors} set ({@link DetectorAddresses}), only to the listed address of
 * the detector whose wire id the heartbeat carries as its source, whatever address the datagram came from; a
 * heartbeat from another address is still answered there but counted (misdirected: its source address was rewritten,
 * or the list names another address of the detector), and one from a detector not listed is not answered (counted:
 * unlisted). So a rewritten source address cannot aim the daemon's datagrams at a third party. Without the setting,
 * to the datagram's source address.
 *
 * <p>The thread blocks in one system call for the next datagram on a plain {@link DatagramChannel}: an idle daemon
 * spends half its CPU here (ten heartbeats a second, each waking cold code), and a selector, a pipeline and pooled
 * buffers around a 53-byte read and write only made each wake-up longer (docs/results.md, "The idle daemon").
 */
final class HeartbeatResponder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatResponder.class);

    private final int self;
    private final long stallNs;
    private final LongSupplier clock;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong withheld = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    private final AtomicLong stale = new AtomicLong();
    private final AtomicLong misdirected = new AtomicLong();
    private final AtomicLong unlisted = new AtomicLong();
    private final DetectorAddresses detectors;
    /** At most one WARN a minute for each kind of heartbeat that the detector list does not expect. */
    private final RateLimitedLog unlistedLog = new RateLimitedLog(LOG, TimeUnit.MINUTES.toNanos(1));
    private final RateLimitedLog misdirectedLog = new RateLimitedLog(LOG, TimeUnit.MINUTES.toNanos(1));
    /** Where the ACK of the last {@link #answer} that returned one goes (the heartbeat thread's). */
    private InetSocketAddress replyTo;
    private volatile long progressNs;
    /** Opens heartbeats and seals acks: used only by the heartbeat thread (and tests calling {@link #answer}). */
    private final FrameGuard guard;
    private DatagramChannel channel;
    private Thread thread;

    /**
     * @param self    this daemon's node id, the source of its acks
     * @param stallNs how long the engine may show no progress before heartbeats go unanswered
     * @param clock   the time source, in nanoseconds
     * @param auth    how heartbeats and acks are authenticated
     * @param detectors the detectors answered and where, or {@link DetectorAddresses#NONE}: each heartbeat answered
     *                  to its source address
     */
    HeartbeatResponder(int self, long stallNs, LongSupplier clock, Authentication auth, DetectorAddresses detectors) {
        this.self = self;
        this.detectors = detectors;
        this.stallNs = stallNs;
        this.clock = clock;
        this.guard = auth.newGuard(self);
        this.progressNs = clock.getAsLong();
    }

    /** Binds {@code address} on the responder's own thread; a failure is one line that names the setting. */
    void start(InetSocketAddress address) {
        try {
            channel = DatagramChannel.open();
            channel.bind(address);
        } catch (IOException e) {
            close();
            throw BindFailure.of("the heartbeat socket", address, "address, heartbeat-port", e);
        }
        thread = new Thread(this::serve, "ricochet-heartbeat");
        thread.setDaemon(true);
        thread.start();
        if (detectors.isEmpty()) {
            LOG.info("answering failure-detector heartbeats on {}, each to its source address (failure-detectors "
                    + "not set)", address);
        } else {
            LOG.info("answering failure-detector heartbeats on {}, only those of {} and each at that address",
                    address, detectors);
        }
    }

    /** Called on the engine's thread: it is making progress now. */
    void engineAlive() {
        progressNs = clock.getAsLong();
    }

    /**
     * Decides one datagram, received from {@code sender}: the sealed ACK's length if it is an authentic, fresh, valid
     * HEARTBEAT to answer (the ACK written into {@code ack}, which has room for the trailer, and to be sent to
     * {@link #replyTo()}), else 0 (counted: unauthentic or malformed, replayed, stale, from a detector not listed, or
     * withheld because the engine stalled).
     */
    int answer(byte[] datagram, int datagramLength, InetSocketAddress sender, byte[] ack) {
        replyTo = null;
        int length = guard.open(datagram, 0, datagramLength);
        if (length == DatagramAuth.REPLAYED || length == DatagramAuth.STALE) {
            // Authentic but seen before, or too old: a replayed heartbeat gets no answer.
            (length == DatagramAuth.REPLAYED ? replayed : stale).incrementAndGet();
            return 0;
        }
        byte[] frame = datagram;
        if (length < HeaderFlyweight.HEADER_LENGTH || frame[HeaderFlyweight.TYPE_OFFSET] != FrameType.HEARTBEAT) {
            refused.incrementAndGet();
            return 0;
        }
        int ackLength = HeartbeatFlyweight.ackInto(frame, 0, length, self, ack, 0);
        if (ackLength == 0) {
            refused.incrementAndGet();
            return 0;
        }
        int detector = Bytes.getInt(frame, HeaderFlyweight.SOURCE_OFFSET);
        InetSocketAddress to = destination(detector, sender);
        if (to == null) {
            return 0;
        }
        if (clock.getAsLong() - progressNs > stallNs) {
            withheld.incrementAndGet();
            return 0;
        }
        answered.incrementAndGet();
        replyTo = to;
        // Bound to the detector that sent the heartbeat (its wire id is the heartbeat's source).
        return guard.seal(ack, 0, ackLength, detector);
    }

    /**
     * Where the ACK of {@code detector}'s heartbeat from {@code sender} goes: the detector's listed address (counted
     * misdirected when the heartbeat came from another), {@code sender} when no detector is listed at all, or null
     * (counted unlisted) when others are but not this one.
     */
    private InetSocketAddress destination(int detector, InetSocketAddress sender) {
        DetectorAddresses.Route route = detectors.route(detector, sender);
        if (route == DetectorAddresses.Route.UNLISTED) {
            unlisted.incrementAndGet();
            unlistedLog.warn("node {}: a heartbeat of the detector with wire id {} (from {}; a detector logs its "
                    + "wire id at start) left unanswered, so that detector will report this node failed: "
                    + "failure-detectors lists no detector with that id; list every detector that may watch this "
                    + "node (its rack's, the standbys, the next rack's)", self, detector, sender);
        } else if (route == DetectorAddresses.Route.REDIRECTED) {
            misdirected.incrementAndGet();
            misdirectedLog.warn("node {}: a heartbeat of detector {} came from {}, not from its address in "
                    + "failure-detectors: answered at {} (its source address was rewritten on the way, or the list "
                    + "names another address of that detector than its --bind)", self, detectors.name(detector),
                    sender, detectors.address(detector));
        }
        return detectors.ackAddress(route, detector, sender);
    }

    /** Where the ACK of the last {@link #answer} that returned one goes. */
    InetSocketAddress replyTo() {
        return replyTo;
    }

    /**
     * Heartbeats answered, withheld (engine stalled), refused (not a valid HEARTBEAT), replayed and stale (authentic,
     * but taken before or sent too far from this host's clock), misdirected (from another address than their
     * detector's listed one, answered at the listed one) and unlisted (from a detector not listed, unanswered), since
     * the start.
     */
    long[] counts() {
        return new long[] {answered.get(), withheld.get(), refused.get(), replayed.get(), stale.get(),
            misdirected.get(), unlisted.get()};
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close(); // wakes the thread's receive, which then ends
            } catch (IOException e) {
                LOG.debug("closing the heartbeat socket: {}", e.toString());
            }
        }
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The heartbeat thread: one datagram at a time, answered at once, until the socket closes. */
    private void serve() {
        byte[] rx = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
        byte[] tx = new byte[HeartbeatFlyweight.LENGTH + DatagramAuth.TRAILER_LENGTH];
        // One byte more than the largest datagram taken, so a longer one shows (receive truncates silently).
        ByteBuffer in = ByteBuffer.allocateDirect(rx.length + 1);
        ByteBuffer out = ByteBuffer.allocateDirect(tx.length);
        while (channel.isOpen()) {
            try {
                in.clear();
                InetSocketAddress sender = (InetSocketAddress) channel.receive(in);
                int length = in.position();
                if (length > rx.length) {
                    refused.incrementAndGet();
                    continue;
                }
                in.flip().get(rx, 0, length);
                int ackLength = answer(rx, length, sender, tx);
                if (ackLength > 0) {
                    out.clear();
                    out.put(tx, 0, ackLength).flip();
                    channel.send(out, replyTo);
                }
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException | RuntimeException e) {
                LOG.warn("heartbeat socket error: {}", e.toString());
            }
        }
    }
}
