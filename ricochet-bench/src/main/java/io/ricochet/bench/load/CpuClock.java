package io.ricochet.bench.load;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** CPU time used by this whole process (every thread, user + system), as the JVM reports it. */
public final class CpuClock {
    private CpuClock() {
    }

    /** Process CPU time in nanoseconds, or -1 if this JVM cannot tell. */
    public static long processNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** Seconds of CPU between two {@link #processNanos()} readings, or -1 if either is unknown. */
    public static double secondsBetween(long startNs, long endNs) {
        return startNs < 0 || endNs < 0 ? -1 : (endNs - startNs) / 1e9;
    }
}
