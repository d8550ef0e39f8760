package io.ricochet.bench.load;

import io.ricochet.client.ApiAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Settings of one sink ({@code bench sink}); a bad value is refused with a message naming the flag.
 *
 * @param api          the daemon's API
 * @param groups       groups to join
 * @param seconds      how long to run, 0 = until stopped
 * @param progressFile where running totals go once a second; null for none
 * @param sampleMillis how often a {@link SinkSample} is taken for the report's timeline
 * @param daemonStats  whether each sample also holds the daemon's counters (over a second API connection)
 * @param daemonPid    the daemon's process id, whose CPU time each sample reads; 0 for none
 * @param expect       the load generators' reports to check the delivery promise against when stopping; empty for
 *                     no check
 * @param graceSeconds how long, once stopped, to wait for the last packets to be delivered or given up before the
 *                     check: the daemon's NAK give-up time (about 3.3 s) plus a margin
 */
public record SinkConfig(ApiAddress api, GroupList groups, double seconds, Path progressFile, int sampleMillis,
                         boolean daemonStats, long daemonPid, List<Path> expect, double graceSeconds) {

    public SinkConfig {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(groups, "groups");
        expect = List.copyOf(expect);
        require(seconds >= 0 && !Double.isInfinite(seconds), "--seconds", seconds, "must be 0 or more");
        require(sampleMillis >= 100 && sampleMillis <= 60_000, "--sample-ms", sampleMillis, "must be in 100..60000");
        require(daemonPid >= 0, "--daemon-pid", daemonPid, "must be a process id");
        require(graceSeconds >= 0 && graceSeconds <= 600, "--grace", graceSeconds, "must be in 0..600 seconds");
    }

    private static void require(boolean ok, String flag, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(flag + " " + value + ": " + rule);
        }
    }
}
