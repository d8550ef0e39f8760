package io.ricochet.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Where and how a figure was made, for its table: the machine, the command, the scale (duration and seeds), the
 * date and how long it took.
 */
public record RunInfo(String machine, String command, Scale scale, Instant date, double wallSeconds) {

    /** This machine: CPU model, cores, memory, OS, Java. */
    public static String thisMachine() {
        Runtime rt = Runtime.getRuntime();
        return String.format(Locale.ROOT, "%s, %d cores, %s, %s %s, Java %s (%s)", cpuModel(), rt.availableProcessors(),
                memory(), System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("java.version"), System.getProperty("java.vm.name"));
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or not readable: the model is only informative.
        }
        return System.getProperty("os.arch");
    }

    private static String memory() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/meminfo"));
            for (String line : lines) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return String.format(Locale.ROOT, "%.0f GiB RAM", kb / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | RuntimeException e) {
            // As above.
        }
        return "RAM unknown";
    }

    /** The report's lines about this run (markdown list items). */
    public String markdown() {
        String seeds = scale.seeds() == 1 ? "seed 1" : "seeds 1-" + scale.seeds();
        return "- Run: `" + command + "` on " + DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC).format(date)
                + " (UTC); " + seeds + "; " + Numbers.plain(scale.seconds()) + " s of measured traffic per run"
                + (scale.seconds() == Scale.FULL_SECONDS ? " (as the paper)" : " (the paper: 30 s)")
                + (scale.quick() ? ", --quick" : "") + "; took " + Numbers.duration(wallSeconds) + ".\n"
                + "- Machine: " + machine + ".\n";
    }
}
