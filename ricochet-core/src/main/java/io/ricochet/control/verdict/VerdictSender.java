package io.ricochet.control.verdict;

import io.netty.channel.Channel;
import io.ricochet.control.link.ControlLink;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link GmsFailureReporter}'s session with one GMS partition: a {@link VerdictQueue} written to the partition's
 * leader over a {@link ControlLink}. A new verdict is written at once when the link is up; on every (re)connect to
 * a leader the latest verdict of every subject is written again, since the previous leader may have died before
 * committing what it read. A full queue evicts its oldest subject; one never written is lost, counted, and logged at
 * WARN once per outage.
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
            ControlMessage lost = queue.offer(verdict);
            if (lost != null) {
                dropped = queue.dropped();
                if (!warnedThisOutage) {
                    warnedThisOutage = true;
                    LOG.warn("{}: verdicts of {} subjects held, the most kept; dropping the oldest never sent ({}) "
                            + "and counting further drops", link.name(), queue.size(), lost);
                }
            }
            flush();
        });
    }

    /** Drops the verdict held about node {@code nodeId}, on the link's loop (after what was reported before). */
    void forget(int nodeId) {
        link.execute(() -> queue.forget(nodeId));
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
            LOG.info("{}: {} verdicts dropped so far; the latest of {} subjects now sent", link.name(),
                    queue.dropped(), queue.size());
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

    /** Writes what this session has not had yet; nothing while the link is down. */
    private void flush() {
        Channel ch = link.channel();
        if (ch == null) {
            return;
        }
        for (VerdictQueue.Entry entry : queue.takeUnwritten()) {
            ch.write(entry.verdict, ch.voidPromise());
        }
        ch.flush();
    }
}
