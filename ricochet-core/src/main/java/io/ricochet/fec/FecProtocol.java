package io.ricochet.fec;

import io.ricochet.engine.Counter;
import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.nak.NakCounter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Sender-based FEC as a {@link ProtocolFactory} ({@code "fec"}), so the simulator and the daemon can run it on the
 * same workloads as Ricochet. The engine draws nothing at random, so the generator it is offered is unused.
 */
public final class FecProtocol implements ProtocolFactory {
    /** The counters of a sender-based FEC engine: the shared ones, the NAK layer's and FEC's. */
    public static final List<Counter> COUNTERS = Counters.set(EngineCounter.values(), NakCounter.values(),
            FecCounter.values());

    private final FecConfig config;

    public FecProtocol(FecConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** FEC with the defaults of {@link FecConfig#builder()}. */
    public FecProtocol() {
        this(FecConfig.builder().build());
    }

    public FecConfig config() {
        return config;
    }

    @Override
    public String name() {
        return "fec";
    }

    @Override
    public ProtocolEngine create(int node, RandomGenerator rng, Outbox outbox) {
        return new FecEngine(node, config, outbox);
    }

    @Override
    public int maxPayload() {
        return config.maxPayload();
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("r", config.r());
        p.put("c", config.c());
        p.put("flushTimeoutMs", config.flushTimeoutNs() / 1e6);
        p.put("nak", config.nakSettings().nakEnabled());
        return p;
    }

    @Override
    public List<Counter> counters() {
        return COUNTERS;
    }
}
