package io.ricochet.support;

import org.slf4j.Logger;

/**
 * WARN at most once per interval, DEBUG in between, with a count of what was held back: for what a peer can
 * cause as often as it likes (failed handshakes, refused messages), so a flood cannot flood the log. Used on one
 * event loop thread.
 */
public final class RateLimitedLog {
    private final Logger log;
    private final long intervalNs;
    private long nextWarnNs;
    private boolean warned;
    private long suppressed;

    /** @param intervalNs least time between two WARN lines */
    public RateLimitedLog(Logger log, long intervalNs) {
        this.log = log;
        this.intervalNs = intervalNs;
    }

    /** Logs {@code format} with {@code args} at WARN if none was logged in the interval, else at DEBUG. */
    public void warn(String format, Object... args) {
        long nowNs = System.nanoTime();
        if (!warned || nowNs - nextWarnNs >= 0) {
            warned = true;
            nextWarnNs = nowNs + intervalNs;
            if (suppressed > 0) {
                log.warn(format + " (and {} more like it at DEBUG since the last)", append(args, suppressed));
                suppressed = 0;
            } else {
                log.warn(format, args);
            }
        } else {
            suppressed++;
            log.debug(format, args);
        }
    }

    private static Object[] append(Object[] args, Object last) {
        Object[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = last;
        return all;
    }
}
