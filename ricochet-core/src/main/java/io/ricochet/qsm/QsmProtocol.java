package io.ricochet.qsm;

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

/**
 * QSM's token-ring recovery as a {@link ProtocolFactory} ({@code "qsm"}). The engine draws nothing at random, so the
 * generator it is offered is unused.
 */
public final class QsmProtocol implements ProtocolFactory {
    /** The counters of a QSM engine. */
    public static final List<Counter> COUNTERS = Counters.set(EngineCounter.values(), QsmCounter.values());

    private final QsmConfig config;

    public QsmProtocol(QsmConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    public QsmConfig config() {
        return config;
    }

    @Override
    public String name() {
        return "qsm";
    }

    @Override
    public ProtocolEngine create(int node, RandomGenerator rng, Outbox outbox) {
        return new QsmEngine(node, config, outbox);
    }

    @Override
    public int maxPayload() {
        return config.maxPayload();
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("tokenIntervalMs", config.tokenIntervalNs() / 1e6);
        p.put("regenerationRounds", config.regenerationRounds());
        p.put("recoveryRounds", config.recoveryRounds());
        p.put("parkAfterIdleRounds", config.parkAfterIdleRounds());
        p.put("maxSenders", config.maxSenders());
        p.put("maxRecords", config.maxRecords());
        p.put("partitionSize", config.partitionSize());
        return p;
    }

    @Override
    public List<Counter> counters() {
        return COUNTERS;
    }
}
