package io.ricochet.sim;

import io.ricochet.fountain.layered.LayerSchedule;
import io.ricochet.fountain.layered.LayeredPacket;
import io.ricochet.fountain.layered.LayeredReceiver;
import io.ricochet.fountain.layered.LayeredSender;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Layered multicast congestion control in virtual time (Digital Fountain paper, section VII-A): one
 * {@link LayeredSender}, and receivers each behind its own {@link BottleneckLink}, each following
 * {@link LayeredReceiver}'s rule. Deterministic: the same config gives the same traces.
 *
 * <pre>
 *   sender --layer l, if the receiver's link forwards l--> bottleneck (rate, drop-tail queue)
 *          --propagation--> receiver --join / leave (after its latency)--> what the link forwards
 * </pre>
 */
public final class LayeredSimulation {
    private final LayeredSimConfig config;

    public LayeredSimulation(LayeredSimConfig config) {
        this.config = config;
    }

    /** Runs for the configured time; one trace per receiver, in the config's order. */
    public List<LayeredTrace> run() {
        LayerSchedule schedule = config.schedule();
        EventQueue events = new EventQueue();
        SplittableRandom random = new SplittableRandom(config.seed());
        List<Node> nodes = new ArrayList<>();
        for (LayeredSimConfig.Receiver spec : config.receivers()) {
            // Random losses draw from a generator of their own per receiver, so that the start times, drawn from
            // the seed's first generator, are the same with and without them.
            SplittableRandom losses = new SplittableRandom(config.seed() * 0x9E3779B97F4A7C15L + nodes.size() + 1);
            Node node = new Node(spec, schedule, random.nextLong(config.spIntervalNs()), losses);
            nodes.add(node);
            if (spec.changeAtNs() >= 0) {
                events.at(spec.changeAtNs(), () -> node.link.rate(spec.ppsAfter()));
            }
        }
        LayeredSender sender = new LayeredSender(schedule);
        while (sender.peekNs() < config.durationNs()) {
            LayeredPacket packet = sender.next();
            events.runUntil(packet.sendNs());
            for (Node node : nodes) {
                node.forward(packet, events);
            }
        }
        events.runUntil(config.durationNs());
        return nodes.stream().map(Node::trace).toList();
    }

    /** One receiver, its link and what the link forwards. */
    private final class Node {
        private final LayeredSimConfig.Receiver spec;
        private final LayerSchedule schedule;
        private final long startNs;
        private final BottleneckLink link;
        private final LayeredReceiver receiver;
        private final SplittableRandom losses;
        private final List<LayeredTrace.Change> changes = new ArrayList<>();
        private int forwarded;
        private int joins;
        private int leaves;

        Node(LayeredSimConfig.Receiver spec, LayerSchedule schedule, long startNs, SplittableRandom losses) {
            this.spec = spec;
            this.losses = losses;
            this.schedule = schedule;
            this.startNs = startNs;
            this.link = new BottleneckLink(spec.pps(), config.queue());
            this.receiver = new LayeredReceiver(schedule, 0, config.deafNs());
            changes.add(new LayeredTrace.Change(startNs, 0));
        }

        void forward(LayeredPacket packet, EventQueue events) {
            if (packet.sendNs() < startNs || packet.layer() > forwarded) {
                return;
            }
            long departure = link.offer(packet.sendNs());
            if (departure >= 0 && (config.randomLoss() == 0 || losses.nextDouble() >= config.randomLoss())) {
                events.at(departure + config.propagationNs(), () -> arrive(packet, events));
            }
        }

        private void arrive(LayeredPacket packet, EventQueue events) {
            long now = events.nowNs();
            LayeredReceiver.Action action = receiver.onPacket(packet, now);
            if (action == LayeredReceiver.Action.NONE) {
                return;
            }
            int level = receiver.level();
            changes.add(new LayeredTrace.Change(now, level));
            if (action == LayeredReceiver.Action.JOIN) {
                joins++;
                events.at(now + config.joinLatencyNs(), () -> forwarded = Math.max(forwarded, receiver.level()));
            } else {
                leaves++;
                events.at(now + config.leaveLatencyNs(), () -> forwarded = Math.min(forwarded, receiver.level()));
            }
        }

        LayeredTrace trace() {
            return new LayeredTrace(spec.name(), startNs, changes, t -> schedule.fairLevel(spec.ppsAt(t)),
                    receiver.losses(), receiver.burstLosses(), link.dropped(), receiver.received(), joins, leaves);
        }
    }
}
