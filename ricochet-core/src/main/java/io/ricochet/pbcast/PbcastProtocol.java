package io.ricochet.pbcast;

import io.ricochet.engine.Counter;
import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ProtocolFactory;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Bimodal Multicast (pbcast) as a {@link ProtocolFactory}, so the simulator and the daemon run it on the same
 * workloads as Ricochet: {@code new SimConfig(..., new PbcastProtocol(config), ...)}.
 */
public final class PbcastProtocol implements ProtocolFactory {
    /** The counters of a pbcast engine. */
    public static final List<Counter> COUNTERS = Counters.set(EngineCounter.values(), PbcastCounter.values());

    private final PbcastConfig config;

    public PbcastProtocol(PbcastConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Basic pbcast with the paper's defaults. */
    public PbcastProtocol() {
        this(PbcastConfig.builder().build());
    }

    public PbcastConfig config() {
        return config;
    }

    @Override
    public String name() {
        return "pbcast";
    }

    @Override
    public ProtocolEngine create(int node, RandomGenerator rng, Outbox outbox) {
        return new PbcastEngine(node, config, rng, outbox);
    }

    @Override
    public int maxPayload() {
        return config.maxPayload();
    }

    @Override
    public Map<String, Object> parameters() {
        return config.parameters();
    }

    @Override
    public List<Counter> counters() {
        return COUNTERS;
    }
}
