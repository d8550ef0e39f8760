package io.ricochet.bench.compare;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one member does in a trial, validated: every bad value is refused with a message naming it. Serialised as JSON
 * to a member's own process.
 *
 * @param system         the system it runs
 * @param id             its id (1..), unique in the trial; Ricochet node id, JGroups channel name {@code m<id>}
 * @param members        members in the trial (every group has all of them)
 * @param groups         the groups it is in
 * @param sending        how it sends
 * @param rate           messages per second over all its groups, when {@link Sending#PACED}
 * @param payloadBytes   bytes per message
 * @param warmupSeconds  sending before the measured window
 * @param seconds        the measured window
 * @param drainSeconds   waited after sending for the last recoveries
 * @param loss           receive-side loss rate on data messages, in [0, 1)
 * @param seed           seeds the loss injection
 * @param ttl            multicast TTL, 0 or 1
 * @param gmsPort        TCP port of the in-process GMS partition on 127.0.0.1 (Ricochet)
 * @param basePort       first UDP port of the trial (JGroups multicast ports, Ricochet multicast and unicast ports)
 * @param ricochetSettings further daemon settings (config-file keys) over the harness's own, for a Ricochet member
 */
public record MemberPlan(SystemKind system, int id, int members, List<Integer> groups, Sending sending, double rate,
                         int payloadBytes, double warmupSeconds, double seconds, double drainSeconds, double loss,
                         long seed, int ttl, int gmsPort, int basePort,
                         Map<String, String> ricochetSettings) {
    /** Members in one trial at most (each Ricochet daemon has an address 127.0.0.(10 + id)). */
    public static final int MAX_MEMBERS = 200;
    /** Largest group id: JGroups group {@code g} has multicast port {@code basePort + g}. */
    public static final int MAX_GROUP = 1024;
    /** UDP ports from {@code basePort} on a trial may use. */
    public static final int PORTS_USED = MAX_GROUP + 4;

    /** Daemon settings a trial keeps for itself: its addresses, ports and TTL (traffic stays on loopback). */
    static final java.util.Set<String> HARNESS_SETTINGS = java.util.Set.of("node-id", "interface", "address",
            "unicast-port", "heartbeat-port", "api-bind", "api-port", "gms", "multicast-ttl", "inject-loss", "seed");

    /** How a member sends. */
    public enum Sending {
        /** It only receives. */
        NONE,
        /** As fast as the system takes messages, round-robin over its groups. */
        FLOOD,
        /** At {@code rate} messages per second, round-robin over its groups. */
        PACED
    }

    public MemberPlan {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(sending, "sending");
        groups = List.copyOf(groups);
        ricochetSettings = ricochetSettings == null ? Map.of() : Map.copyOf(ricochetSettings);
        require(members >= 2 && members <= MAX_MEMBERS, "members", members, "must be in 2.." + MAX_MEMBERS);
        require(id >= 1 && id <= members, "member id", id, "must be in 1..members (" + members + ")");
        require(!groups.isEmpty(), "groups", groups, "must name at least one group");
        require(groups.stream().allMatch(g -> g >= 1 && g <= MAX_GROUP), "groups", groups,
                "must be ids in 1.." + MAX_GROUP);
        require(groups.stream().distinct().count() == groups.size(), "groups", groups, "must not repeat");
        require(sending != Sending.PACED || rate > 0 && rate <= 1_000_000, "rate", rate,
                "must be in (0, 1000000] messages/s");
        require(payloadBytes >= Payload.HEADER_LENGTH && payloadBytes <= 8192, "message size", payloadBytes,
                "must be in " + Payload.HEADER_LENGTH + "..8192 bytes");
        require(warmupSeconds >= 0 && warmupSeconds <= 600, "warm-up", warmupSeconds, "must be in 0..600 s");
        require(seconds > 0 && seconds <= 3600, "seconds", seconds, "must be in (0, 3600] s");
        require(drainSeconds >= 0 && drainSeconds <= 600, "drain", drainSeconds, "must be in 0..600 s");
        require(loss >= 0 && loss < 1, "loss", loss, "must be a rate in [0, 1), e.g. 0.01");
        require(ttl == 0 || ttl == 1, "ttl", ttl, "must be 0 or 1: no traffic may leave the host");
        require(gmsPort > 0 && gmsPort < 65536, "gms port", gmsPort, "must be in 1..65535");
        require(ricochetSettings.keySet().stream().noneMatch(HARNESS_SETTINGS::contains), "ricochet setting",
                ricochetSettings.keySet(), "must not name one the harness sets for safety or addressing "
                        + HARNESS_SETTINGS);
        require(basePort >= 1024 && basePort + PORTS_USED <= 65535, "base port", basePort,
                "must be in 1024.." + (65535 - PORTS_USED));
    }

    private static void require(boolean ok, String name, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(name + " = " + value + ": " + rule);
        }
    }

    /** JGroups: the multicast port of {@code group}; each group has its own, so no channel hears another's. */
    public int jgroupsPort(int group) {
        return basePort + group;
    }

    /** Ricochet: the multicast port of every group (the GMS's pool). */
    public int ricochetMulticastPort() {
        return basePort + MAX_GROUP + 1;
    }

    /** Ricochet: the unicast port of every daemon (each has an address of its own). */
    public int ricochetUnicastPort() {
        return basePort + MAX_GROUP + 2;
    }

    /** Ricochet: the heartbeat port of every daemon. */
    public int ricochetHeartbeatPort() {
        return basePort + MAX_GROUP + 3;
    }

    /** Ricochet: this member's daemon address on loopback. */
    public String ricochetAddress() {
        return "127.0.0." + (10 + id);
    }

    /** Whether this member sends. */
    public boolean sends() {
        return sending != Sending.NONE;
    }
}
