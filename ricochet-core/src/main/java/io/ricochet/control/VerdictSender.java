package io.ricochet.control;

import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link GmsFailureReporter}'s session with one GMS partition: a {@link VerdictQueue} drained onto a reconnecting
 * {@link ControlLink}. A full queue drops its oldest verdict, logs one WARN per outage and counts every drop.
 */
final class VerdictSender implements ControlLink.Handler {
    private static final Logger LOG = LoggerFactory.getLogger(VerdictSender.class);

    private final ControlLink link;
    private final VerdictQueue queue;
    private volatile long dropped;
    private boolean warnedThisOutage;

    VerdictSender(ControlLink link, int capacity) {
        this.link = link;
        this.queue = new VerdictQueue(capacity);
    }

    void start() {
        link.start(this);
    }

    void report(ControlMessage verdict) {
        link.execute(() -> {
            ControlMessage evicted = queue.offer(verdict);
            if (evicted != null) {
                dropped = queue.dropped();
                if (!warnedThisOutage) {
                    warnedThisOutage = true;
                    LOG.warn("{}: verdict queue full; dropping the oldest ({}) and counting further drops",
                            link.name(), evicted);
                }
            }
            flush();
        });
    }

    long dropped() {
        return dropped;
    }

    void close() {
        link.close();
    }

    @Override
    public void onUp() {
        if (warnedThisOutage) {
            LOG.info("{}: {} verdicts dropped so far; {} queued now sent", link.name(), queue.dropped(), queue.size());
            warnedThisOutage = false;
        }
        flush();
    }

    @Override
    public void onDown() {
        queue.connectionLost();
    }

    @Override
    public void onMessage(ControlMessage message) {
        if (message instanceof ErrorReply error) {
            LOG.warn("{}: GMS error {}: {}", link.name(), ErrorCode.name(error.code()), error.message());
        } else {
            LOG.warn("{}: ignoring unexpected {} from the GMS", link.name(), MessageType.name(message.type()));
        }
    }

    private void flush() {
        Channel ch = link.channel();
        if (ch == null) {
            return;
        }
        for (VerdictQueue.Entry entry : queue.takeUnwritten()) {
            ch.write(entry.verdict).addListener(f -> {
                if (f.isSuccess()) {
                    queue.confirm(entry);
                }
            });
        }
        ch.flush();
    }
}
