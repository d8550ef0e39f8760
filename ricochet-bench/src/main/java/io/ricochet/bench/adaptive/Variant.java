package io.ricochet.bench.adaptive;

import io.ricochet.lec.tuning.TuningSettings;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.protocols.ProtocolChoice;

/**
 * One protocol compared: Ricochet with a fixed or a tuned rate-of-fire, or SRM. Every one runs with its NAK layer on,
 * so every loss is recovered in the end and the latency of all recoveries compares.
 */
enum Variant {
    ADAPTIVE("adaptive (r, c), stagger 1", ProtocolChoice.RICOCHET, 1, TuningSettings.on()),
    ADAPTIVE_C("adaptive c, r = 8, stagger 1", ProtocolChoice.RICOCHET, 1, TuningSettings.on().withRRange(8, 8)),
    FIXED_STAGGER_1("fixed (8, 5), stagger 1", ProtocolChoice.RICOCHET, 1, TuningSettings.OFF),
    FIXED_STAGGER_6("fixed (8, 5), stagger 6", ProtocolChoice.RICOCHET, 6, TuningSettings.OFF),
    SRM("SRM-style NAK", ProtocolChoice.SRM, 1, TuningSettings.OFF);

    final String label;
    final ProtocolChoice protocol;
    final int stagger;
    final TuningSettings tuning;

    Variant(String label, ProtocolChoice protocol, int stagger, TuningSettings tuning) {
        this.label = label;
        this.protocol = protocol;
        this.stagger = stagger;
        this.tuning = tuning;
    }

    RicochetConfig engine(int payload) {
        return RicochetConfig.builder().r(8).c(5).stagger(stagger).nakEnabled(true).maxPayload(payload)
                .tuning(tuning).build();
    }
}
