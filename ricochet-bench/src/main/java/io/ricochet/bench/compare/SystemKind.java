package io.ricochet.bench.compare;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The systems the harness runs, by command-line name. */
public enum SystemKind {
    /** JGroups with its stock {@code udp.xml}. */
    JGROUPS("jgroups"),
    /** JGroups with {@code udp.xml} and NAKACK2 {@code xmit_interval=100ms}. */
    JGROUPS_TUNED("jgroups-tuned"),
    /** JGroups tuned for the link: datagrams that fit its MTU, fragments that fit them, 100 ms xmit_interval. */
    JGROUPS_LINK("jgroups-link"),
    /** {@link #JGROUPS_LINK} with SYM_ENCRYPT (a shared AES key) below NAKACK2. */
    JGROUPS_ENCRYPT("jgroups-encrypt"),
    /**
     * Ricochet daemons as the package configures them (every setting at its default, datagrams authenticated with a
     * key file, mutual TLS to the GMS), the application in the daemon's JVM.
     */
    RICOCHET("ricochet");

    private final String cliName;

    SystemKind(String cliName) {
        this.cliName = cliName;
    }

    /** The command-line name. */
    public String cliName() {
        return cliName;
    }

    /**
     * The system named {@code text}.
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static SystemKind parse(String text) {
        String name = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (SystemKind kind : values()) {
            if (kind.cliName.equals(name)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown system '" + text + "'; use one of "
                + Arrays.stream(values()).map(SystemKind::cliName).collect(Collectors.joining(", ")));
    }

    /** A member of this system following {@code plan}, not started. */
    public GroupMember newMember(MemberPlan plan) {
        return switch (this) {
            case JGROUPS, JGROUPS_TUNED, JGROUPS_LINK, JGROUPS_ENCRYPT -> new JGroupsMember(plan);
            case RICOCHET -> new RicochetMember(plan);
        };
    }

    /** Whether this is one of JGroups' configurations. */
    public boolean isJGroups() {
        return this != RICOCHET;
    }

    /**
     * The name a table gives the members of {@code plan}: the system and how it is configured, so that no row hides a
     * non-default setting: e.g. "ricochet (defaults, authenticated)", "ricochet [insecure=on]", "jgroups (stock
     * udp.xml)".
     */
    public static String variant(MemberPlan plan) {
        SystemKind kind = plan.system();
        if (kind == RICOCHET) {
            return RicochetMember.variant(plan);
        }
        return kind.cliName + " (" + JGroupsStack.describe(kind, plan.mtu()) + ")";
    }
}
