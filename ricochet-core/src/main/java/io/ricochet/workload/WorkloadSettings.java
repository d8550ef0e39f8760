package io.ricochet.workload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one node's workload does.
 *
 * @param expectedNode   the node id the daemon must have, or null to accept any
 * @param groups         the groups to join and send to (at least one, no repeats)
 * @param rate           messages per second this node sends, over all its groups
 * @param seconds        how long to send
 * @param rampSeconds    the rate climbs linearly from a tenth to {@code rate} over this many seconds at the start
 *                       (so the JIT of every JVM on a small machine warms up gradually); 0 = full rate at once
 * @param payload        bytes per message, at least {@link PayloadCodec#HEADER_LENGTH}
 * @param seed           seeds the choice of group for each message
 * @param tag            identifies this run on every node; packets with another tag are stale
 * @param settleSeconds  after the last send, how long deliveries must stop before receiving ends
 * @param startFile      if not null, sending starts once this file exists (a barrier across nodes)
 * @param joinTimeout    how long to wait for the daemon to be in every group, and for the start file
 */
public record WorkloadSettings(Integer expectedNode, List<Integer> groups, double rate, double seconds,
                               double rampSeconds, int payload, long seed, long tag, double settleSeconds,
                               Path startFile, Duration joinTimeout) {

    public WorkloadSettings {
        groups = List.copyOf(groups);
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("--groups: give at least one group");
        }
        if (groups.stream().distinct().count() != groups.size()) {
            throw new IllegalArgumentException("--groups " + groups + ": a group is listed twice");
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("--rate " + rate + ": must be a positive number of messages/s");
        }
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("--seconds " + seconds + ": must be 0 or more");
        }
        if (!(rampSeconds >= 0) || rampSeconds > seconds) {
            throw new IllegalArgumentException("--ramp-seconds " + rampSeconds + ": must be 0 to --seconds");
        }
        if (!(settleSeconds >= 0) || Double.isInfinite(settleSeconds)) {
            throw new IllegalArgumentException("--settle-seconds " + settleSeconds + ": must be 0 or more");
        }
        if (payload < PayloadCodec.HEADER_LENGTH) {
            throw new IllegalArgumentException("--payload " + payload + ": must be at least "
                    + PayloadCodec.HEADER_LENGTH + " bytes (the checked header)");
        }
    }

    /** The arguments worth keeping in the result file. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rate", rate);
        m.put("seconds", seconds);
        m.put("rampSeconds", rampSeconds);
        m.put("payload", payload);
        m.put("seed", seed);
        m.put("tag", tag);
        m.put("settleSeconds", settleSeconds);
        return m;
    }
}
