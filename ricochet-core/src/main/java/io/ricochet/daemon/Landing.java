package io.ricochet.daemon;

import io.netty.buffer.ByteBuf;
import io.ricochet.auth.BadTagLog;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.FrameGuard;
import io.ricochet.engine.Counters;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the sockets' datagrams land: the application-level receive buffer of section 4.2.6, which the engine drains
 * in batches. Each datagram is copied once out of the socket's buffer, into the receive buffer's free slot for its
 * (as yet unchecked) frame type, and checked there before anything reads it: a datagram that cannot be a frame, or
 * is unauthentic, replayed or stale, is counted and dropped, and leaves the slot free, so forged input displaces
 * nothing. Our own multicast, looped back so that daemons sharing a host receive it, is counted and dropped unread.
 * Peer input never escapes as an exception.
 *
 * <p>Two kinds: {@link LoopLanding}, on the engine's own thread, and {@link HandoffLanding}, on a receive thread
 * of its own that hands whole batches to the engine.
 */
abstract class Landing {
    /** What a landing feeds: the engine's driver (on the engine's thread). */
    interface Engine {
        /** Processes a batch of received datagrams, draining {@code batch}. */
        void process(ReceiveBuffer batch);

        /** The daemon's counters. */
        Counters counters();
    }

    private static final Logger LOG = LoggerFactory.getLogger(Landing.class);

    private final int self;
    private final FrameGuard guard;
    /** Bad tags said at WARN, per claimed source node, at most once a minute (on the landing's thread). */
    private final BadTagLog badTags;

    /** @param guard checks every datagram before anything reads it (owned by the thread that lands datagrams) */
    Landing(int self, FrameGuard guard) {
        this.self = self;
        this.guard = guard;
        this.badTags = new BadTagLog(LOG, "node " + self, "node ", System::nanoTime);
    }

    /** One datagram from a socket, on the sockets' thread; the bytes are valid only during the call. */
    abstract void land(ByteBuf content);

    /**
     * Every socket that was ready in a wake-up of the sockets' loop has been read (on the sockets' thread): the
     * batch may go to the engine.
     */
    abstract void endOfWakeUp();

    /** Datagrams waiting for the engine now (engine thread). */
    abstract int buffered();

    /** Bytes the receive buffer holds allocated. */
    abstract long memoryBytes();

    /** Brings the daemon's counters up to date with what this landing counted (engine thread), for a reading. */
    void foldCounters() {
    }

    /** Checks the datagram in {@code content} and keeps it in {@code buffer}; a refusal counts in {@code counters}. */
    final void keep(ByteBuf content, ReceiveBuffer buffer, Counters counters) {
        int length = content.readableBytes();
        if (length < HeaderFlyweight.HEADER_LENGTH) {
            counters.increment(DaemonCounter.BAD_DATAGRAM_SIZE);
            return;
        }
        if (content.getInt(content.readerIndex() + HeaderFlyweight.SOURCE_OFFSET) == self) {
            // Nothing in our own multicast is news to us: not copied or checked (a forgery naming us as its source
            // loses nothing either).
            counters.increment(DaemonCounter.OWN_DATAGRAMS);
            return;
        }
        boolean isData = content.getByte(content.readerIndex() + HeaderFlyweight.TYPE_OFFSET) == FrameType.DATA;
        byte[] slot = buffer.spare(isData);
        if (length > slot.length) {
            counters.increment(DaemonCounter.BAD_DATAGRAM_SIZE);
            return;
        }
        content.getBytes(content.readerIndex(), slot, 0, length);
        int frameLength = guard.open(slot, 0, length);
        if (frameLength < HeaderFlyweight.HEADER_LENGTH || frameLength > HeaderFlyweight.MAX_FRAME_LENGTH) {
            counters.increment(refusal(frameLength));
            if (frameLength == DatagramAuth.BAD_TAG) {
                // The source in the header is as claimed, unverified; BadTagLog bounds what a forger can make us say.
                badTags.onBadTag(content.getInt(content.readerIndex() + HeaderFlyweight.SOURCE_OFFSET));
            }
            return;
        }
        buffer.commit(isData, frameLength);
    }

    /** The counter of a datagram {@link FrameGuard#open} refused with {@code reason}. */
    static DaemonCounter refusal(int reason) {
        switch (reason) {
            case DatagramAuth.REPLAYED:
                return DaemonCounter.REPLAYED_DATAGRAMS;
            case DatagramAuth.STALE:
                return DaemonCounter.STALE_DATAGRAMS;
            default:
                return DaemonCounter.UNAUTHENTIC_DATAGRAMS;
        }
    }
}
