package io.ricochet.bench.compare;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The systems the harness runs, by command-line name. */
public enum SystemKind {
    /** JGroups with its stock {@code udp.xml}, bound to loopback. */
    JGROUPS("jgroups"),
    /** JGroups with {@code udp.xml} and NAKACK2 {@code xmit_interval=100ms}, bound to loopback. */
    JGROUPS_TUNED("jgroups-tuned"),
    /** Ricochet daemons (LEC r=8 c=5 and NAKs, as by default), the application in the daemon's JVM. */
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
            case JGROUPS -> new JGroupsMember(plan, false);
            case JGROUPS_TUNED -> new JGroupsMember(plan, true);
            case RICOCHET -> new RicochetMember(plan);
        };
    }
}
