package io.ricochet.srm;

import io.ricochet.engine.Counter;
import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ProtocolFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/** SRM as a {@link ProtocolFactory}, so the simulator and the daemon can run it on Ricochet's workloads. */
public final class SrmProtocol implements ProtocolFactory {
    /** The counters of an SRM engine. */
    public static final List<Counter> COUNTERS = Counters.set(EngineCounter.values(), SrmCounter.values());

    private final SrmConfig config;

    public SrmProtocol(SrmConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** SRM with the default settings. */
    public SrmProtocol() {
        this(SrmConfig.builder().build());
    }

    public SrmConfig config() {
        return config;
    }

    @Override
    public String name() {
        return "srm";
    }

    @Override
    public ProtocolEngine create(int node, RandomGenerator rng, Outbox outbox) {
        return new SrmEngine(node, config, rng, outbox);
    }

    @Override
    public int maxPayload() {
        return config.maxPayload();
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("distanceUs", config.distanceNs() / 1000.0);
        p.put("c1", config.c1());
        p.put("c2", config.c2());
        p.put("d1", config.d1());
        p.put("d2", config.d2());
        p.put("maxRequestRounds", config.maxRequestRounds());
        p.put("maxBackoffExponent", config.maxBackoffExponent());
        p.put("holdDown", config.holdDownFactor());
        p.put("sessionIntervalMs", config.sessionIntervalNs() / 1e6);
        p.put("sessionIdleRounds", config.sessionIdleRounds());
        p.put("sessionReportsHeard", config.sessionReportsHeard());
        return p;
    }

    @Override
    public List<Counter> counters() {
        return COUNTERS;
    }
}
