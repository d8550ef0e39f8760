package io.ricochet.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Readings of the receiving host from {@code /proc}: the kernel's UDP counters of this network namespace
 * ({@code /proc/net/snmp}: RcvbufErrors counts datagrams dropped for a full socket buffer) and the CPU time of a
 * process ({@code /proc/PID/stat}, user + system). The parsers are pure; a reading that cannot be taken gives an
 * empty map or -1, never an exception.
 */
public final class HostReadings {
    private static final Path SNMP = Path.of("/proc/net/snmp");
    private static final int UTIME_AFTER_COMM = 11;

    private HostReadings() {
    }

    /** The {@code Udp:} counters of {@code /proc/net/snmp} text: header line names, next line values. */
    static Map<String, Long> udpCounters(String snmp) {
        Map<String, Long> counters = new LinkedHashMap<>();
        String[] header = null;
        for (String line : snmp.split("\n")) {
            if (!line.startsWith("Udp:")) {
                continue;
            }
            String[] fields = line.trim().split("\\s+");
            if (header == null) {
                header = fields;
                continue;
            }
            for (int i = 1; i < Math.min(header.length, fields.length); i++) {
                try {
                    counters.put(header[i], Long.parseLong(fields[i]));
                } catch (NumberFormatException e) {
                    return Map.of();
                }
            }
            return counters;
        }
        return Map.of();
    }

    /**
     * User plus system CPU time of a process, in clock ticks, from its {@code /proc/PID/stat} text (fields 14 and
     * 15; the command name in parentheses may hold spaces, so fields are counted after its closing one); -1 if the
     * text is not such a line.
     */
    static long cpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        if (fields.length <= UTIME_AFTER_COMM + 1) {
            return -1;
        }
        try {
            return Long.parseLong(fields[UTIME_AFTER_COMM]) + Long.parseLong(fields[UTIME_AFTER_COMM + 1]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** This namespace's UDP counters now, or an empty map if they cannot be read. */
    static Map<String, Long> udpCounters() {
        try {
            return udpCounters(Files.readString(SNMP));
        } catch (IOException e) {
            return Map.of();
        }
    }

    /** The CPU ticks of process {@code pid} now, or -1 (no such process, or {@code pid} is 0 or less). */
    public static long cpuTicks(long pid) {
        if (pid <= 0) {
            return -1;
        }
        try {
            return cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException e) {
            return -1;
        }
    }
}
