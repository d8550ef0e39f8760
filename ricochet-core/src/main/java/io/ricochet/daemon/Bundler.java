package io.ricochet.daemon;

import io.ricochet.api.MessageId;
import io.ricochet.engine.Counters;
import io.ricochet.wire.DataFlyweight;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Packs an application's small messages into one datagram ({@link BundleFormat}) up to {@code bundleBytes}, and
 * hands the datagram to the engine at the end of the loop's batch of tasks, or after the linger, or once no other
 * message fits (docs/design/daemon.md, "Bundling"). One datagram is filled at a time: a message for another group
 * sends it first, so every datagram reaches the engine right after the send queue saw the engine ready for it and
 * flow control stays exact. A message's id is known when it is added: the datagram will be the group's next
 * engine packet, as nothing else sends to the group meanwhile (membership changes send the datagram first). Owned
 * by the engine's event loop.
 */
final class Bundler {
    /** The engine, through the driver. */
    interface Engine {
        /** The seqno the engine gives the next packet it sends to {@code group}. */
        long nextSeqno(int group);

        /** Multicasts a datagram's payload to {@code group} now; returns its seqno. */
        long sendDatagram(int group, byte[] payload, int offset, int length);

        /** A datagram the bundler sent on its own (end of batch, linger) went to the engine: flush the sockets. */
        void sentOnItsOwn();
    }

    private final int bundleBytes;
    private final long lingerNs;
    private final Engine engine;
    private final Executor afterBatch;
    private final ScheduledExecutorService loop;
    private final Counters counters;
    /** {@code [BUNDLE][u16][message]...}; a lone message is sent from {@link BundleFormat#LENGTH} as SINGLE. */
    private final byte[] buffer = new byte[DataFlyweight.MAX_PAYLOAD + BundleFormat.LENGTH];
    private int group;
    private long seqno;
    private int count;
    private int length;
    /** Which datagram a scheduled send is for: one sent meanwhile makes the task a no-op. */
    private long generation;
    private ScheduledFuture<?> linger;

    /**
     * @param bundleBytes the largest payload a datagram of several messages fills; 0 = no bundling (each message
     *                    its own datagram, sent at once)
     * @param lingerNs    how long a datagram waits for more messages; 0 = until the end of the loop's batch
     * @param afterBatch  runs a task once the loop has run the tasks it is running now (the end of the batch)
     * @param loop        the engine's loop, for the linger timer
     */
    Bundler(int bundleBytes, long lingerNs, Engine engine, Executor afterBatch, ScheduledExecutorService loop,
            Counters counters) {
        if (bundleBytes < 0 || bundleBytes > DataFlyweight.MAX_PAYLOAD || lingerNs < 0) {
            throw new IllegalArgumentException("bundle of " + bundleBytes + " bytes, linger " + lingerNs + " ns");
        }
        this.bundleBytes = bundleBytes;
        this.lingerNs = lingerNs;
        this.engine = engine;
        this.afterBatch = afterBatch;
        this.loop = loop;
        this.counters = counters;
    }

    /** Whether a datagram is being filled. */
    boolean isOpen() {
        return count > 0;
    }

    /** Whether a message of {@code size} bytes to {@code group} goes into the datagram being filled. */
    boolean joins(int group, int size) {
        return count > 0 && this.group == group && fits(size);
    }

    private boolean fits(int size) {
        return count < MessageId.PER_DATAGRAM && length + BundleFormat.LENGTH + size <= bundleBytes;
    }

    /**
     * Adds a message (at most the engine's payload minus {@link BundleFormat#KIND} bytes) to the datagram being
     * filled, or to a new one for {@code group} (the one being filled is sent first); returns the message's id.
     * The caller checked that the engine can take a new datagram, unless the message {@link #joins} this one.
     */
    long add(int group, byte[] message) {
        if (count > 0 && !joins(group, message.length)) {
            send();
        }
        if (count == 0) {
            this.group = group;
            this.seqno = engine.nextSeqno(group);
            buffer[0] = BundleFormat.BUNDLE;
            length = BundleFormat.KIND;
            generation++;
        }
        BundleFormat.writeLength(buffer, length, message.length);
        System.arraycopy(message, 0, buffer, length + BundleFormat.LENGTH, message.length);
        length += BundleFormat.LENGTH + message.length;
        long id = MessageId.of(seqno, count++);
        if (!fits(0)) {
            send();
        } else if (count == 1) {
            schedule();
        }
        return id;
    }

    private void schedule() {
        long datagram = generation;
        if (lingerNs == 0) {
            afterBatch.execute(() -> sendOnItsOwn(datagram));
        } else {
            linger = loop.schedule(() -> sendOnItsOwn(datagram), lingerNs, TimeUnit.NANOSECONDS);
        }
    }

    private void sendOnItsOwn(long datagram) {
        if (count > 0 && generation == datagram) {
            send();
            engine.sentOnItsOwn();
        }
    }

    /** Sends the datagram being filled, if any, to the engine now. */
    void send() {
        if (count == 0) {
            return;
        }
        if (linger != null) {
            linger.cancel(false);
            linger = null;
        }
        int messages = count;
        count = 0;
        long sent;
        if (messages == 1) {
            buffer[BundleFormat.LENGTH] = BundleFormat.SINGLE;
            sent = engine.sendDatagram(group, buffer, BundleFormat.LENGTH, length - BundleFormat.LENGTH);
        } else {
            sent = engine.sendDatagram(group, buffer, 0, length);
            counters.increment(DaemonCounter.BUNDLES_SENT);
            counters.add(DaemonCounter.BUNDLED_MESSAGES, messages);
            counters.max(DaemonCounter.BUNDLE_PEAK, messages);
        }
        if (sent != seqno) {
            throw new IllegalStateException("bug: the datagram of group " + group + " went out as seqno " + sent
                    + ", but its messages were given ids of seqno " + seqno);
        }
    }
}
