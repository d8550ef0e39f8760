package io.ricochet.daemon;

import io.netty.util.ResourceLeakDetector;

/**
 * How a daemon's process runs Netty's buffer leak detection. It samples one buffer allocation in 128 with a stack
 * trace: 1-2 % of the receive and engine threads at 150 000 datagrams/s (docs/results.md at a8cff48). A daemon's
 * process runs without it unless {@value #PROPERTY} is set (e.g. to {@code simple}, to chase a leak); the tests run
 * with it.
 */
public final class LeakDetection {
    /** Netty's system property for its leak detection level. */
    public static final String PROPERTY = "io.netty.leakDetection.level";

    private LeakDetection() {
    }

    /**
     * Turns Netty's leak detection off for this process unless {@value #PROPERTY} is set. For a process that runs
     * daemons (the daemon command, the experiments' members), not for a library embedding one: the setting is the
     * whole process's.
     */
    public static void offUnlessSet() {
        if (System.getProperty(PROPERTY) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
