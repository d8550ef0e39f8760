package io.ricochet.lec.tuning;

/**
 * What a node saw of one group (or of all its groups) lately, in two exponentially weighted windows: a fast one
 * (a couple of epochs) and a slow one (tens of epochs), each counting data packets received, losses resolved by LEC
 * and otherwise (NAK, late arrival, given up), and the rate-of-fire (r, c) in force at each resolution.
 *
 * <p>Decisions read the slow window: at 0.1 % loss a node sees about one loss a second, and only tens of seconds
 * of them estimate the loss rate well enough to keep c still. The fast window detects a change of the loss rate:
 * when the losses it counted are far (more than {@link #SIGMAS} standard deviations of a Poisson count, plus a
 * margin) above what the slow window's rate predicts for its packets, or the last epoch's losses as far below, the
 * network changed, and the slow window restarts from the fast window or the last epoch. So a step in loss is seen
 * within an epoch or two and a steady loss is averaged long. A fall is believed only {@link #EPOCHS_AFTER_RISE}
 * epochs after the last rise: under bursty loss (1 % in bursts of 50 is a burst every five seconds or so) the
 * seconds between bursts are not a quieter network, and c must not come down between them.
 */
final class Evidence {
    /** How far, in Poisson standard deviations, the fast window's losses must be from the slow one's prediction. */
    static final double SIGMAS = 3;
    /** Losses the fast window must be off by besides, so a handful at very low loss never counts as a change. */
    static final double MARGIN = 3;
    private static final double FAST_MEMORY = 0.5;
    /** Epochs after a rise during which no fall is believed: the quiet between bursts is not a quieter network. */
    static final int EPOCHS_AFTER_RISE = 10;

    /** One exponentially weighted window of counts. */
    static final class Window {
        double data;
        double lec;
        double other;
        /** Sum of c in force at each resolved loss (so cSum / losses is the c the misses were seen under). */
        double cSum;
        /** Sum of r in force at each resolved loss (rSum / losses is the r the misses were seen under). */
        double rSum;
        /** Sum over the LEC recoveries of the time from the loss's discovery to its recovery, ns. */
        double lecNs;

        double losses() {
            return lec + other;
        }

        /** Data packets this window covers, lost ones included. */
        double packets() {
            return data + losses();
        }

        void age(double memory) {
            data *= memory;
            lec *= memory;
            other *= memory;
            cSum *= memory;
            rSum *= memory;
            lecNs *= memory;
        }

        void copy(Window from) {
            data = from.data;
            lec = from.lec;
            other = from.other;
            cSum = from.cSum;
            rSum = from.rSum;
            lecNs = from.lecNs;
        }
    }

    final Window fast = new Window();
    final Window slow = new Window();
    /** This epoch's counts alone. */
    final Window epoch = new Window();
    private final Window[] all = {fast, slow, epoch};
    private long restarts;
    private int epochsSinceRise = EPOCHS_AFTER_RISE;

    void dataReceived() {
        fast.data++;
        slow.data++;
        epoch.data++;
    }

    void resolved(boolean byLec, double c, int r, long latencyNs) {
        for (Window w : all) {
            if (byLec) {
                w.lec++;
                w.lecNs += latencyNs;
            } else {
                w.other++;
            }
            w.cSum += c;
            w.rSum += r;
        }
    }

    /**
     * Restarts the slow window if the loss rate changed beyond chance (see the class comment): from the fast window
     * if it rose (the fast window still holds the epoch before, so the estimate errs high), from this epoch alone if
     * it fell (the fast window would still hold half an epoch of the lossy past). Returns true if it did.
     */
    boolean detectChange() {
        if (slow.packets() <= fast.packets() || fast.packets() <= 0) {
            return false;
        }
        if (fast.losses() - expected(fast) > spread(expected(fast))) {
            slow.copy(fast);
            restarts++;
            epochsSinceRise = 0;
            return true;
        }
        if (epochsSinceRise >= EPOCHS_AFTER_RISE && epoch.packets() > 0
                && expected(epoch) - epoch.losses() > spread(expected(epoch))) {
            slow.copy(epoch);
            restarts++;
            return true;
        }
        return false;
    }

    /** The losses the slow window's rate predicts for {@code w}'s packets. */
    private double expected(Window w) {
        return slow.losses() / slow.packets() * w.packets();
    }

    private static double spread(double expected) {
        return SIGMAS * Math.sqrt(Math.max(expected, 1)) + MARGIN;
    }

    /** How often the slow window restarted: changes of the loss rate seen. */
    long restarts() {
        return restarts;
    }

    /** Ages the windows by one epoch; the slow one by {@code memory}; a new epoch starts. */
    void age(double memory) {
        fast.age(FAST_MEMORY);
        slow.age(memory);
        epoch.age(0);
        epochsSinceRise = Math.min(EPOCHS_AFTER_RISE, epochsSinceRise + 1);
    }
}
