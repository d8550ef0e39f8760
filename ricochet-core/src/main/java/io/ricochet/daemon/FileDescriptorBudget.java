package io.ricochet.daemon;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The file descriptors a daemon's settings may need at once, against the process's open-file limit, checked at
 * start. The need is the worst case: a group socket per {@code perSocket} groups up to max-groups, one descriptor per
 * API connection up to api-max-connections, and {@link #MARGIN} for everything else (the JVM's jars and pipes, each
 * event loop's epoll and wake-up descriptors, the unicast, sending and heartbeat sockets, the API listeners, the GMS
 * links, the metrics port). Running out shows as failed binds and refused API connections long after start, so the
 * daemon says it at start instead.
 *
 * <p>Only a WARN, not a refusal: the need is an upper bound that a node in fewer groups with fewer clients never
 * reaches, and an operator who knows that should not have to raise a limit to start.
 */
final class FileDescriptorBudget {
    /** Descriptors for everything but group sockets and API connections. */
    static final int MARGIN = 256;

    private FileDescriptorBudget() {
    }

    /** Descriptors the settings may need: group sockets for {@code maxGroups}, API connections and the margin. */
    static long needed(int maxGroups, int perSocket, int apiMaxConnections) {
        long groupSockets = ((long) maxGroups + perSocket - 1) / perSocket;
        return groupSockets + apiMaxConnections + MARGIN;
    }

    /**
     * The warning for a process whose open-file {@code limit} is below what the settings need, or empty if it is
     * not (or the limit is unknown: empty {@code limit}).
     */
    static Optional<String> warning(OptionalLong limit, int maxGroups, int perSocket, int apiMaxConnections) {
        long needed = needed(maxGroups, perSocket, apiMaxConnections);
        if (limit.isEmpty() || limit.getAsLong() >= needed) {
            return Optional.empty();
        }
        long groupSockets = needed - apiMaxConnections - MARGIN;
        return Optional.of("open-file limit " + limit.getAsLong() + " is below the " + needed
                + " file descriptors the settings may need (max-groups " + maxGroups + " in up to " + groupSockets
                + " group sockets, api-max-connections " + apiMaxConnections + ", " + MARGIN + " for the rest): "
                + "raise it (LimitNOFILE= in the systemd unit, ulimit -n in a shell) or lower max-groups or "
                + "api-max-connections; until then a join or an API connection beyond the limit fails");
    }

    /** This process's open-file limit, if the platform tells it (a Unix JVM does). */
    static OptionalLong processLimit() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? OptionalLong.of(unix.getMaxFileDescriptorCount())
                : OptionalLong.empty();
    }
}
