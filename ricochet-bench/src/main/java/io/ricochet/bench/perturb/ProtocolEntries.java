package io.ricochet.bench.perturb;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A comma-separated list of protocols as the experiments take it: each entry is a {@code simulate --protocol} name,
 * optionally with a Bimodal Multicast variant ({@code pbcast:grb}) or QSM's token hold in ms ({@code qsm:5}). Names
 * are checked by simulate itself when the runs are built, so a protocol added there (qsm) is accepted here with no
 * change.
 */
final class ProtocolEntries {
    private ProtocolEntries() {
    }

    /**
     * The entries of {@code text}, each once, in order.
     *
     * @throws IllegalArgumentException if the list is empty or an entry is malformed
     */
    static List<String> parse(String flag, String text) {
        Set<String> entries = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String entry = part.trim().toLowerCase(java.util.Locale.ROOT);
            if (!entry.matches("[a-z0-9]+(:[a-z0-9.]+)?")) {
                throw new IllegalArgumentException(flag + " " + text + ": each entry is a protocol name, "
                        + "pbcast:VARIANT or qsm:TOKEN_MS, separated by commas, e.g. ricochet,pbcast:grb,qsm:5,srm");
            }
            entries.add(entry);
        }
        return List.copyOf(entries);
    }

    /**
     * simulate's flags for one entry: {@code --protocol NAME} and, after a colon, {@code --qsm-token-interval-ms MS}
     * for qsm or {@code --pbcast-variant V} for any other (simulate refuses it for a protocol other than pbcast).
     */
    static List<String> flags(String entry) {
        List<String> flags = new ArrayList<>();
        String[] parts = entry.split(":");
        flags.add("--protocol");
        flags.add(parts[0]);
        if (parts.length == 2) {
            flags.add(parts[0].equals("qsm") ? "--qsm-token-interval-ms" : "--pbcast-variant");
            flags.add(parts[1]);
        }
        return flags;
    }

    /** The comma-separated numbers of {@code text}, each in [min, max). */
    static List<Double> numbers(String flag, String text, double min, double max) {
        List<Double> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            double v;
            try {
                v = Double.parseDouble(part.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " " + text + ": '" + part.trim() + "' is not a number", e);
            }
            if (!(v >= min && v < max)) {
                throw new IllegalArgumentException(flag + " " + text + ": each value must be in [" + min + ", " + max
                        + ")");
            }
            if (!out.contains(v)) {
                out.add(v);
            }
        }
        return out;
    }
}
