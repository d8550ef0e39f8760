package io.ricochet.bench.compare;

import java.util.Locale;

/** How the members of a trial are packaged into processes. */
public enum Packaging {
    /** One JVM per member, started by the trial (children of this process). */
    PROCESSES("processes"),
    /** Every member in one JVM, started fresh by the trial (a child of this process). */
    INPROCESS("inprocess");

    private final String cliName;

    Packaging(String cliName) {
        this.cliName = cliName;
    }

    /** The command-line name. */
    public String cliName() {
        return cliName;
    }

    /**
     * The packaging named {@code text}.
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static Packaging parse(String text) {
        String name = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (Packaging p : values()) {
            if (p.cliName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown packaging '" + text + "'; use processes or inprocess");
    }
}
