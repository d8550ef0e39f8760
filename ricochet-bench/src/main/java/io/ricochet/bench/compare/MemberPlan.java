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
 * @param mtu            0: every member on 127.0.0.x loopback in one network namespace; else the MTU of the real link
 *                       (veth pairs on a bridge) each member has in a network namespace of its own, at
 *                       {@link #LINK_SUBNET}{@code .<id>}, the harness's GMS at {@link #LINK_GMS_ADDRESS}
 * @param credentials    the run's credentials folder ({@link Credentials}: Ricochet's key file and certificates,
 *                       JGroups' keystore), or null (only for an insecure Ricochet variant and unencrypted JGroups)
 */
public record MemberPlan(SystemKind system, int id, int members, List<Integer> groups, Sending sending, double rate,
                         int payloadBytes, double warmupSeconds, double seconds, double drainSeconds, double loss,
                         long seed, int ttl, int gmsPort, int basePort,
                         Map<String, String> ricochetSettings, int mtu, String credentials) {
    /** The link's addresses: member {@code id} is {@code LINK_SUBNET.id}. */
    public static final String LINK_SUBNET = "198.18.0";
    /** The GMS's address on the link. */
    public static final String LINK_GMS_ADDRESS = LINK_SUBNET + ".250";
    /** The interface of every member's namespace on the link. */
    public static final String LINK_INTERFACE = "v0";
    /** The MTUs a link may have. */
    public static final int MIN_MTU = 1280;
    public static final int MAX_MTU = 9000;
    /** Members in one trial at most (each Ricochet daemon has an address 127.0.0.(10 + id)). */
    public static final int MAX_MEMBERS = 200;
    /** Largest group id: JGroups group {@code g} has multicast port {@code basePort + g}. */
    public static final int MAX_GROUP = 1024;
    /** UDP ports from {@code basePort} on a trial may use. */
    public static final int PORTS_USED = MAX_GROUP + 4;

    /**
     * Daemon settings a trial keeps for itself: addressing (its addresses and ports, the GMS), the credentials it
     * makes, the TTL (traffic stays on the link) and its loss injection.
     */
    static final java.util.Set<String> HARNESS_SETTINGS = java.util.Set.of("node-id", "interface", "address",
            "unicast-port", "heartbeat-port", "api-bind", "api-port", "gms", "multicast-ttl", "inject-loss", "seed",
            "key-file", "tls-cert", "tls-key", "tls-ca");

    /** As the full form, on loopback, without credentials. */
    public MemberPlan(SystemKind system, int id, int members, List<Integer> groups, Sending sending, double rate,
                      int payloadBytes, double warmupSeconds, double seconds, double drainSeconds, double loss,
                      long seed, int ttl, int gmsPort, int basePort, Map<String, String> ricochetSettings) {
        this(system, id, members, groups, sending, rate, payloadBytes, warmupSeconds, seconds, drainSeconds, loss, seed,
                ttl, gmsPort, basePort, ricochetSettings, 0, null);
    }

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
        require(mtu == 0 || mtu >= MIN_MTU && mtu <= MAX_MTU, "mtu", mtu,
                "must be 0 (loopback) or in " + MIN_MTU + ".." + MAX_MTU);
        require(mtu == 0 || loss == 0, "loss", loss, "on a real link is the network's (nftables), not the systems' "
                + "injectors: give the plan none");
        require(mtu == 0 || members < 250, "members", members, "on a real link must be below 250 (addresses)");
        if (system == SystemKind.RICOCHET) {
            int payload = RicochetMember.payload(ricochetSettings);
            require(payloadBytes <= payload - 1, "message size", payloadBytes, "does not fit Ricochet's payload "
                    + payload + " (a message is at most payload - 1 = " + (payload - 1) + " bytes): use sizes "
                    + "that fit the daemon's defaults (e.g. 1000, 64), or name a variant: --ricochet-set payload=N");
        }
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

    /** Ricochet: this member's daemon address, on loopback or on the link. */
    public String ricochetAddress() {
        return mtu == 0 ? "127.0.0." + (10 + id) : LINK_SUBNET + "." + id;
    }

    /** JGroups: the address every channel of this member binds to. */
    public String bindAddress() {
        return mtu == 0 ? "127.0.0.1" : LINK_SUBNET + "." + id;
    }

    /** Ricochet: the interface multicast goes out on. */
    public String ricochetInterface() {
        return mtu == 0 ? "lo" : LINK_INTERFACE;
    }

    /** Ricochet: the GMS partition's address. */
    public String gmsHost() {
        return mtu == 0 ? "127.0.0.1" : LINK_GMS_ADDRESS;
    }

    /** Whether the members run on a real link (each in a network namespace of its own). */
    public boolean onLink() {
        return mtu != 0;
    }

    /** Whether this member sends. */
    public boolean sends() {
        return sending != Sending.NONE;
    }
}
