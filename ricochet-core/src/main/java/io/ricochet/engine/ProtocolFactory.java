package io.ricochet.engine;

import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Builds one node's engine of a protocol (Ricochet's LEC + NAK, SRM, sender-based FEC, pbcast), so the simulator
 * and the daemon can run any of them on identical workloads. Every protocol multicasts the shared DATA frame;
 * its control frames use the type ids reserved for it in {@code FrameType}.
 */
public interface ProtocolFactory {
    /** Short name used on the command line and in results: {@code ricochet}, {@code srm}, {@code fec}, ... */
    String name();

    /** A new engine for {@code node}; {@code rng} is its seeded source of randomness. */
    ProtocolEngine create(int node, RandomGenerator rng, Outbox outbox);

    /** Largest payload a DATA frame of this protocol may carry. */
    int maxPayload();

    /** The protocol's settings, for result files. */
    Map<String, Object> parameters();

    /** The counters each of its engines keeps, in id order. */
    List<Counter> counters();
}
