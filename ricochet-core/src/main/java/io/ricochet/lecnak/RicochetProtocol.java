package io.ricochet.lecnak;

import io.ricochet.engine.Counter;
import io.ricochet.engine.Counters;
import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.OriginSeals;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.engine.ProtocolFactory;
import io.ricochet.fountain.backup.FountainCounter;
import io.ricochet.lec.LecCounter;
import io.ricochet.nak.NakCounter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/** Ricochet, LEC with the NAK layer behind it, as a {@link ProtocolFactory}: the simulator and the daemon run it. */
public final class RicochetProtocol implements ProtocolFactory {
    /** The counters of a Ricochet engine: the shared ones, the NAK layer's and LEC's. */
    public static final List<Counter> COUNTERS = Counters.set(EngineCounter.values(), NakCounter.values(),
            LecCounter.values());
    /** The counters of a Ricochet engine with the fountain backup on: {@link #COUNTERS} and the backup's. */
    public static final List<Counter> FOUNTAIN_COUNTERS = Counters.set(EngineCounter.values(), NakCounter.values(),
            LecCounter.values(), FountainCounter.values());

    /** The counters of an engine with the fountain backup on or off (off keeps the columns of earlier runs). */
    public static List<Counter> counters(boolean fountainBackup) {
        return fountainBackup ? FOUNTAIN_COUNTERS : COUNTERS;
    }

    private final RicochetConfig config;
    private final Supplier<OriginSeals> seals;

    /** Unauthenticated: repairs carry no origin seals ({@link OriginSeals#NONE}). */
    public RicochetProtocol(RicochetConfig config) {
        this(config, () -> OriginSeals.NONE);
    }

    /** Each engine gets its own {@code seals.get()}; a repair of r sealed entries must fit a frame. */
    public RicochetProtocol(RicochetConfig config, Supplier<OriginSeals> seals) {
        this.config = Objects.requireNonNull(config, "config");
        this.seals = Objects.requireNonNull(seals, "seals");
    }

    public RicochetConfig config() {
        return config;
    }

    @Override
    public String name() {
        return "ricochet";
    }

    @Override
    public ProtocolEngine create(int node, RandomGenerator rng, Outbox outbox) {
        return new RicochetEngine(node, config, seals.get(), rng, outbox);
    }

    @Override
    public int maxPayload() {
        return config.maxPayload();
    }

    @Override
    public Map<String, Object> parameters() {
        if (config.tuning().enabled()) {
            // Only with tuning on, so runs without it keep their results byte for byte.
            Map<String, Object> p = new java.util.LinkedHashMap<>(Map.of("r", config.r(), "c", config.defaultC(),
                    "stagger", config.stagger(), "nak", config.nakSettings().nakEnabled()));
            if (config.fountainBackup()) {
                p.put("fountainBackup", true);
            }
            p.put("rateOfFireTuning", config.tuning().toString());
            return p;
        }
        if (config.fountainBackup()) {
            return Map.of("r", config.r(), "c", config.defaultC(), "stagger", config.stagger(),
                    "nak", config.nakSettings().nakEnabled(), "fountainBackup", true);
        }
        return Map.of("r", config.r(), "c", config.defaultC(), "stagger", config.stagger(),
                "nak", config.nakSettings().nakEnabled());
    }

    @Override
    public List<Counter> counters() {
        return counters(config.fountainBackup());
    }
}
