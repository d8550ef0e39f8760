package io.ricochet.lec.tuning;

/**
 * What a node saw of one group (or of all its groups) lately, in two exponentially weighted windows: a fast one
 * (a couple of epochs) and a slow one (tens of epochs), each counting data packets received, losses resolved by LEC
 * and otherwise (NAK, late arrival, given up), and the rate-of-fire in force at each resolution.
 *
 * <p>Decisions read the slow window: at 0.1 % loss a node sees about one loss a second, and only tens of seconds
 * of them estimate the loss rate well enough to keep c still. The fast window detects a change of the loss rate:
 * when the losses it counted are far (more than {@link #SIGMAS} standard deviations of a Poisson count, plus a
 * margin) from what the slow window's rate predicts for its packets, the network changed, and the slow window
 * restarts from the fast one. So a step in loss is seen within an epoch or two and a steady loss is averaged long.
 */
final class Evidence {
    /** How far, in Poisson standard deviations, the fast window's losses must be from the slow one's prediction. */
    static final double SIGMAS = 3;
    /** Losses the fast window must be off by besides, so a handful at very low loss never counts as a change. */
    static final double MARGIN = 3;
    private static final double FAST_MEMORY = 0.5;

    /** One exponentially weighted window of counts. */
    static final class Window {
        double data;
        double lec;
        double other;
        /** Sum of c in force at each resolved loss (so cSum / losses is the c the misses were seen under). */
        double cSum;

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
        }

        void copy(Window from) {
            data = from.data;
            lec = from.lec;
            other = from.other;
            cSum = from.cSum;
        }
    }

    final Window fast = new Window();
    final Window slow = new Window();
    private long restarts;

    void dataReceived() {
        fast.data++;
        slow.data++;
    }

    void resolved(boolean byLec, double c) {
        if (byLec) {
            fast.lec++;
            slow.lec++;
        } else {
            fast.other++;
            slow.other++;
        }
        fast.cSum += c;
        slow.cSum += c;
    }

    /**
     * Restarts the slow window from the fast one if their loss rates differ beyond chance (see the class comment).
     * Returns true if it did.
     */
    boolean detectChange() {
        if (slow.packets() <= fast.packets() || fast.packets() <= 0) {
            return false;
        }
        double expected = slow.losses() / slow.packets() * fast.packets();
        double spread = SIGMAS * Math.sqrt(Math.max(expected, 1)) + MARGIN;
        if (Math.abs(fast.losses() - expected) > spread) {
            slow.copy(fast);
            restarts++;
            return true;
        }
        return false;
    }

    /** How often the slow window restarted: changes of the loss rate seen. */
    long restarts() {
        return restarts;
    }

    /** Ages both windows by one epoch; the slow one by {@code memory}. */
    void age(double memory) {
        fast.age(FAST_MEMORY);
        slow.age(memory);
    }
}
