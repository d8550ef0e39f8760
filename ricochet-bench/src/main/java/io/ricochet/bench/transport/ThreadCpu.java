package io.ricochet.bench.transport;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this process at one moment: in total, and in the threads of the API clients (their reader threads,
 * {@code ricochet-client-*}, and the bench's own, {@code bench-*}). The rest is the daemon's threads (engine loop,
 * API I/O, GMS link) and the JVM's (GC, JIT). A thread that ends between two snapshots loses its time from the
 * client share, so a measurement starts its client threads before the first snapshot and ends them after the
 * second.
 */
record ThreadCpu(long processNs, Map<Long, Long> clientThreadNs) {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Whether the JVM can measure both figures; without them the CPU columns are left out. */
    static boolean supported() {
        return THREADS.isThreadCpuTimeSupported() && processCpuNs() >= 0;
    }

    /** Reads the clocks now. */
    static ThreadCpu now() {
        if (THREADS.isThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
        Map<Long, Long> clients = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && isClient(info.getThreadName())) {
                long ns = THREADS.getThreadCpuTime(info.getThreadId());
                if (ns >= 0) {
                    clients.put(info.getThreadId(), ns);
                }
            }
        }
        return new ThreadCpu(processCpuNs(), clients);
    }

    private static boolean isClient(String name) {
        return name.startsWith("ricochet-client-") || name.startsWith("bench-");
    }

    private static long processCpuNs() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    /** Process CPU nanoseconds from {@code start} to this snapshot. */
    long processSince(ThreadCpu start) {
        return processNs - start.processNs;
    }

    /** CPU nanoseconds of the client threads alive at both snapshots, from {@code start} to this one. */
    long clientsSince(ThreadCpu start) {
        long sum = 0;
        for (Map.Entry<Long, Long> thread : clientThreadNs.entrySet()) {
            Long before = start.clientThreadNs.get(thread.getKey());
            if (before != null) {
                sum += thread.getValue() - before;
            }
        }
        return sum;
    }
}
