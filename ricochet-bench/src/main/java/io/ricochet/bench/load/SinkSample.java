package io.ricochet.bench.load;

import java.util.Map;

/**
 * One reading the sink takes every sampling interval, for a timeline: its own running totals, and, when asked
 * for, its daemon's counters, the daemon's CPU time and the host's kernel UDP counters at the same instant. All
 * values are totals since their start; a timeline takes differences.
 *
 * @param epochMillis    when the reading was taken, in milliseconds since the epoch
 * @param delivered      packets delivered so far (first copies)
 * @param lost           loss notices so far (first copies)
 * @param overflowed     deliveries the daemon dropped for this slow client so far
 * @param daemonCounters the daemon's counters ({@code ricochet stats}), empty if not asked for or not answered
 * @param daemonCpuTicks the daemon's user + system CPU time in clock ticks, -1 if not asked for or not readable
 * @param kernelUdp      this host's kernel UDP counters ({@code /proc/net/snmp}), empty if not readable
 */
public record SinkSample(long epochMillis, long delivered, long lost, long overflowed,
                         Map<String, Long> daemonCounters, long daemonCpuTicks, Map<String, Long> kernelUdp) {
}
