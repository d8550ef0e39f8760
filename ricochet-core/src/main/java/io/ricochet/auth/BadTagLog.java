package io.ricochet.auth;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Says so when a peer's datagrams fail authentication with a bad tag ({@link DatagramAuth#BAD_TAG}): the key id is
 * one this process holds, but the tag was made with other key bytes, which is what a host with a different key
 * file under the same key id sends. Without this line the only sign is a counter and, later, the failure detector
 * failing that host.
 *
 * <p>At most one WARN per source per {@link #INTERVAL_NS} (DEBUG in between), and at most {@link #MAX_SOURCES}
 * sources remembered: a source beyond them is logged at DEBUG until a remembered one's interval has passed, so a
 * forger naming many sources gets at most {@code MAX_SOURCES} lines a minute. Used on one thread; the clock is
 * injected so that tests step it.
 */
public final class BadTagLog {
    /** Least time between two WARN lines about the same source. */
    public static final long INTERVAL_NS = TimeUnit.MINUTES.toNanos(1);
    /** Sources remembered at once. */
    public static final int MAX_SOURCES = 64;

    private final Logger log;
    private final LongSupplier clockNs;
    private final String self;
    /** Put before a source in the message ("node " when sources are node ids), so callers pass the bare key. */
    private final String sourcePrefix;
    /** Each remembered source's next time it may be logged at WARN, oldest first. */
    private final Map<Object, Long> nextWarnNs = new LinkedHashMap<>();

    /**
     * @param self    what this process is, for the message ("node 3", "detector rack-1")
     * @param clockNs monotonic nanoseconds ({@code System::nanoTime} in production)
     */
    public BadTagLog(Logger log, String self, LongSupplier clockNs) {
        this(log, self, "", clockNs);
    }

    /**
     * @param sourcePrefix written before each source in the message ("node " when the sources are node ids), so a
     *                     caller on the receive path passes the bare key and builds no string per datagram
     */
    public BadTagLog(Logger log, String self, String sourcePrefix, LongSupplier clockNs) {
        this.log = log;
        this.self = self;
        this.sourcePrefix = sourcePrefix;
        this.clockNs = clockNs;
    }

    /** A datagram from {@code source} (a node id or an address) had a bad tag; returns whether it was a WARN. */
    public boolean onBadTag(Object source) {
        long nowNs = clockNs.getAsLong();
        Long next = nextWarnNs.get(source);
        if (next != null && nowNs - next < 0) {
            log.debug("datagram from {}{} with a bad tag", sourcePrefix, source);
            return false;
        }
        if (next == null && nextWarnNs.size() >= MAX_SOURCES && !forgetOneExpired(nowNs)) {
            log.debug("datagram from {}{} with a bad tag (too many sources to warn about each)", sourcePrefix, source);
            return false;
        }
        nextWarnNs.remove(source);
        nextWarnNs.put(source, nowNs + INTERVAL_NS);
        log.warn("{}: datagrams from {}{} fail authentication (bad tag under a key id {} holds): that host's key "
                + "probably differs from this one's key file; compare the key files (at most one such line a minute "
                + "per source)", self, sourcePrefix, source, self);
        return true;
    }

    /** Forgets the oldest remembered source if its interval has passed; returns whether one was forgotten. */
    private boolean forgetOneExpired(long nowNs) {
        Iterator<Long> oldest = nextWarnNs.values().iterator();
        if (nowNs - oldest.next() >= 0) {
            oldest.remove();
            return true;
        }
        return false;
    }
}
