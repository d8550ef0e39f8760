package io.ricochet.bench.perturb;

import java.util.Random;

/**
 * The kind of model Bimodal Multicast's analysis uses for its "almost all or almost none" figure, computed exactly
 * (a Markov chain over rounds) and by seeded Monte Carlo (to check the chain). One sender and {@code n - 1} other
 * processes:
 * <ol>
 *   <li>the sender's unreliable multicast reaches each other process independently with probability
 *       {@code 1 - multicastLoss} (1 is the analysis' pessimistic case: only the sender has the message);</li>
 *   <li>with probability {@code senderCrash} the sender crashes right after it, and never gossips;</li>
 *   <li>then {@code rounds} gossip rounds: every live holder sends its digest to {@code fanout} other processes
 *       chosen uniformly; a process that lacks the message asks for it and gets it back, three messages each lost
 *       with probability {@code loss}. So a non-holder gets the message in a round with probability
 *       {@code 1 - (1 - fanout (1 - loss)^3 / (n - 1))^g} for {@code g} gossiping holders.</li>
 * </ol>
 * The result is the distribution of the number of the {@code n - 1} other processes holding the message at the
 * end. Without a crash the epidemic nearly always reaches everyone; a message stays with almost none only if the
 * multicast failed and the one process that had it stopped gossiping: the lower mode's weight is about
 * {@code senderCrash} times the chance the multicast reached almost no one.
 *
 * @param n             processes, the sender included, 2..2000
 * @param fanout        gossip targets per holder per round, 1..n-1
 * @param rounds        gossip rounds, 0..1000
 * @param loss          loss probability of each gossip, request and retransmission, [0, 1]
 * @param senderCrash   probability the sender crashes right after its multicast, [0, 1]
 * @param multicastLoss probability the multicast misses a given process, [0, 1]
 */
record EpidemicModel(int n, int fanout, int rounds, double loss, double senderCrash, double multicastLoss) {

    EpidemicModel {
        check(n >= 2 && n <= 2000, "--nodes " + n + ": must be in 2..2000");
        check(fanout >= 1 && fanout <= n - 1, "--fanout " + fanout + ": must be in 1.." + (n - 1) + " (nodes - 1)");
        check(rounds >= 0 && rounds <= 1000, "--rounds " + rounds + ": must be in 0..1000");
        check(loss >= 0 && loss <= 1, "--loss " + loss + ": a probability, in [0, 1]");
        check(senderCrash >= 0 && senderCrash <= 1, "--sender-crash " + senderCrash + ": a probability, in [0, 1]");
        check(multicastLoss >= 0 && multicastLoss <= 1, "--multicast-loss " + multicastLoss
                + ": a probability, in [0, 1]");
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** P(exactly k of the n - 1 other processes hold the message after the last round), k = 0..n-1; exact. */
    double[] distribution() {
        double[] initial = binomial(n - 1, 1 - multicastLoss);
        double[] alive = evolve(initial, 1);
        double[] crashed = evolve(initial, 0);
        double[] out = new double[n];
        for (int k = 0; k < n; k++) {
            out[k] = (1 - senderCrash) * alive[k] + senderCrash * crashed[k];
        }
        return out;
    }

    /** The chain over rounds from {@code start}, the sender adding {@code senderGossips} (0 or 1) gossipers. */
    private double[] evolve(double[] start, int senderGossips) {
        double[] now = start.clone();
        for (int r = 0; r < rounds; r++) {
            double[] next = new double[n];
            for (int k = 0; k < n; k++) {
                if (now[k] == 0) {
                    continue;
                }
                double[] gained = binomial(n - 1 - k, infection(k + senderGossips));
                for (int j = 0; j < gained.length; j++) {
                    next[k + j] += now[k] * gained[j];
                }
            }
            now = next;
        }
        return now;
    }

    /** The chance a non-holder gets the message in a round with {@code gossipers} live holders. */
    double infection(int gossipers) {
        double perContact = fanout * Math.pow(1 - loss, 3) / (n - 1);
        return 1 - Math.pow(1 - perContact, gossipers);
    }

    /** Binomial(trials, p) probabilities 0..trials, in log space so tails far below 1e-300 do not break it. */
    static double[] binomial(int trials, double p) {
        double[] out = new double[trials + 1];
        if (p <= 0 || p >= 1) {
            out[p <= 0 ? 0 : trials] = 1;
            return out;
        }
        double logP = Math.log(p);
        double logQ = Math.log1p(-p);
        double logChoose = 0;   // log C(trials, k), updated in place
        for (int k = 0; k <= trials; k++) {
            if (k > 0) {
                logChoose += Math.log(trials - k + 1) - Math.log(k);
            }
            out[k] = Math.exp(logChoose + k * logP + (trials - k) * logQ);
        }
        return out;
    }

    /**
     * The same model played {@code trials} times with seed {@code seed}, process by process and round by round:
     * how often each k came out. A check of {@link #distribution()}'s bookkeeping (mixture, transitions, tails).
     */
    long[] monteCarlo(int trials, long seed) {
        Random random = new Random(seed);
        long[] counts = new long[n];
        for (int t = 0; t < trials; t++) {
            int holders = 0;
            for (int i = 1; i < n; i++) {
                holders += random.nextDouble() >= multicastLoss ? 1 : 0;
            }
            int senderGossips = random.nextDouble() >= senderCrash ? 1 : 0;
            for (int r = 0; r < rounds; r++) {
                double q = infection(holders + senderGossips);
                int gained = 0;
                for (int i = holders; i < n - 1; i++) {
                    gained += random.nextDouble() < q ? 1 : 0;
                }
                holders += gained;
            }
            counts[holders]++;
        }
        return counts;
    }
}
