package io.ricochet.sim;

import io.ricochet.fountain.layered.LayerSchedule;
import java.util.List;

/**
 * A run of {@link LayeredSimulation}: one sender's layers (see {@link LayerSchedule}), receivers each behind its
 * own {@link BottleneckLink}, and the network's delays. Times in ns, rates in packets per second.
 *
 * @param layers         layers 0..layers-1
 * @param basePps        rate of layers 0 and 1
 * @param spIntervalNs   time between SPs
 * @param burstNs        burst length before each SP (then as long a silence)
 * @param burstAllLayers every layer bursts before every SP, or only those up to the SP's level
 * @param queue          drop-tail queue of every bottleneck, in packets
 * @param joinLatencyNs  from a receiver's join to its link forwarding the layer
 * @param leaveLatencyNs from a receiver's leave to its link no longer forwarding the layer
 * @param propagationNs  from leaving the bottleneck to reaching the receiver
 * @param deafNs         a receiver's deaf period after a leave
 * @param durationNs     simulated time
 * @param seed           fixes each receiver's start time (uniform in the first SP interval) and random losses
 * @param randomLoss     probability that a packet leaving a bottleneck is lost on its way anyway (errors, other
 *                       traffic's bursts: losses the layers' own rate did not cause), 0..0.5
 * @param receivers      the receivers
 */
public record LayeredSimConfig(int layers, double basePps, long spIntervalNs, long burstNs,
                               boolean burstAllLayers, int queue,
                               long joinLatencyNs, long leaveLatencyNs, long propagationNs, long deafNs,
                               long durationNs, long seed, double randomLoss, List<Receiver> receivers) {
    /**
     * One receiver: its bottleneck's rate, and optionally a new rate from {@code changeAtNs} on.
     *
     * @param name       its name in tables and plots
     * @param pps        its bottleneck's rate
     * @param changeAtNs when the rate becomes {@code ppsAfter}, or -1 for never
     * @param ppsAfter   the rate from then on
     */
    public record Receiver(String name, double pps, long changeAtNs, double ppsAfter) {
        /** A receiver whose bottleneck keeps its rate. */
        public static Receiver fixed(String name, double pps) {
            return new Receiver(name, pps, -1, pps);
        }

        /** The bottleneck's rate at {@code timeNs}. */
        public double ppsAt(long timeNs) {
            return changeAtNs >= 0 && timeNs >= changeAtNs ? ppsAfter : pps;
        }
    }

    public LayeredSimConfig {
        receivers = List.copyOf(receivers);
        if (receivers.isEmpty()) {
            throw new IllegalArgumentException("no receiver: give at least one");
        }
        if (!(randomLoss >= 0 && randomLoss <= 0.5)) {
            throw new IllegalArgumentException("random loss " + randomLoss + ": must be in 0..0.5");
        }
        if (queue < 0 || joinLatencyNs < 0 || leaveLatencyNs < 0 || propagationNs < 0 || deafNs < 0
                || durationNs <= 0) {
            throw new IllegalArgumentException("queue, latencies and deaf period must be >= 0 and the duration > 0");
        }
        new LayerSchedule(layers, basePps, spIntervalNs, burstNs, burstAllLayers); // checks its parameters
    }

    /** The sender's schedule. */
    public LayerSchedule schedule() {
        return new LayerSchedule(layers, basePps, spIntervalNs, burstNs, burstAllLayers);
    }
}
