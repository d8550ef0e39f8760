package io.ricochet.ipmc;

import io.ricochet.engine.Counter;
import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ProtocolFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Plain IP multicast as a {@link ProtocolFactory} ({@code "ipmc"}): best effort, the baseline the other protocols
 * are measured against. The engine draws nothing at random, so the generator it is offered is unused.
 */
public final class IpmcProtocol implements ProtocolFactory {
    /** The counters of an ipmc engine: the shared ones only (most stay 0: it detects and recovers nothing). */
    public static final List<Counter> COUNTERS = Counters.set(EngineCounter.values());

    private final int maxPayload;

    /**
     * @param maxPayload largest payload a DATA frame carries, at least 1
     * @throws IllegalArgumentException if it is less than 1
     */
    public IpmcProtocol(int maxPayload) {
        if (maxPayload < 1) {
            throw new IllegalArgumentException("payload " + maxPayload + ": must be at least 1 byte");
        }
        this.maxPayload = maxPayload;
    }

    @Override
    public String name() {
        return "ipmc";
    }

    @Override
    public ProtocolEngine create(int node, RandomGenerator rng, Outbox outbox) {
        return new IpmcEngine(node, maxPayload, outbox);
    }

    @Override
    public int maxPayload() {
        return maxPayload;
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("streamWindow", IpmcEngine.STREAM_WINDOW);
        return p;
    }

    @Override
    public List<Counter> counters() {
        return COUNTERS;
    }
}
