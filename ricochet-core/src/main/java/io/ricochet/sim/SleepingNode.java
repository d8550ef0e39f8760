package io.ricochet.sim;

import java.util.ArrayDeque;

/**
 * The state of the perturbed node while it sleeps: the frames waiting in its socket buffer (bounded by the
 * perturbation's backlog), whether it missed a timer, and whether its wake-up is already scheduled. The simulator
 * asks it what to do with each arrival, timer and send of that node.
 */
final class SleepingNode {
    private final Perturbation perturbation;
    private final ArrayDeque<byte[]> backlog = new ArrayDeque<>();
    private long wakeScheduledFor = -1;
    private boolean timerMissed;
    private long held;
    private long overflowed;
    private long sendsSkipped;

    SleepingNode(Perturbation perturbation) {
        this.perturbation = perturbation;
    }

    int node() {
        return perturbation.node();
    }

    boolean asleep(int node, long nowNs) {
        return node == perturbation.node() && perturbation.asleep(nowNs);
    }

    /** Keeps a frame that arrived while asleep; false if the buffer is full and the frame is dropped. */
    boolean hold(byte[] frame) {
        if (backlog.size() >= perturbation.backlog()) {
            overflowed++;
            return false;
        }
        backlog.add(frame);
        held++;
        return true;
    }

    void missTimer() {
        timerMissed = true;
    }

    void skipSend() {
        sendsSkipped++;
    }

    /** The wake-up time for the sleep at {@code nowNs}, or -1 if it is already scheduled. */
    long wakeToSchedule(long nowNs) {
        long wake = perturbation.wakeNs(nowNs);
        if (wake == wakeScheduledFor) {
            return -1;
        }
        wakeScheduledFor = wake;
        return wake;
    }

    /** The next frame waiting, oldest first, or null. */
    byte[] nextHeld() {
        return backlog.poll();
    }

    /** True once: if a timer fired while asleep. */
    boolean takeMissedTimer() {
        boolean missed = timerMissed;
        timerMissed = false;
        return missed;
    }

    Perturbation perturbation() {
        return perturbation;
    }

    long held() {
        return held;
    }

    long overflowed() {
        return overflowed;
    }

    long sendsSkipped() {
        return sendsSkipped;
    }
}
