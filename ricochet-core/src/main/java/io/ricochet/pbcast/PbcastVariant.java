package io.ricochet.pbcast;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The protocols the Bimodal Multicast performance study measures, as combinations of {@link PbcastConfig}'s
 * switches (docs/design/pbcast.md, part 2): basic pbcast; Pbcast-ipmc (4.1); Pbcast-grb, which "consists of
 * Pbcast-ipmc together with" the gossip retransmit bit (4.2); Pbcast-local, whose Figure 9 keeps grb's lines (4.3).
 */
public enum PbcastVariant {
    BASIC(false, false, false),
    IPMC(true, false, false),
    GRB(true, true, false),
    LOCAL(true, true, true);

    private final boolean ipmc;
    private final boolean grb;
    private final boolean local;

    PbcastVariant(boolean ipmc, boolean grb, boolean local) {
        this.ipmc = ipmc;
        this.grb = grb;
        this.local = local;
    }

    /** The name on the command line and in results. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a command-line name, with a message listing the choices. */
    public static PbcastVariant parse(String text) {
        for (PbcastVariant v : values()) {
            if (v.cliName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return v;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not one of "
                + Arrays.stream(values()).map(PbcastVariant::cliName).collect(Collectors.joining(", ")));
    }

    /** Sets this variant's three switches on {@code builder}, leaving every other setting as it is. */
    public PbcastConfig.Builder apply(PbcastConfig.Builder builder) {
        return builder.ipmc(ipmc).grb(grb).local(local);
    }
}
