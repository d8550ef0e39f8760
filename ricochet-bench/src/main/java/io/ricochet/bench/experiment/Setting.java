package io.ricochet.bench.experiment;

import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.loss.LossScope;
import io.ricochet.loss.LossSpec;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.sim.SimConfig;

/**
 * One point's simulation setting, without its duration and seed: the (n, d, s) grouping pattern, the protocol, the
 * rate-of-fire (r, c), the stagger, the NAK layer and the loss model. Everything else is the paper's section 5
 * workload as {@code ricochet simulate} runs it by default: 1000 data packets/s arriving per node, 1 KB payloads,
 * 50 µs one-hop latency, loss on data packets unless {@link #lossScope} says otherwise, one drain second.
 * Records compare by value, so equal settings run once however many figures use them.
 */
public record Setting(int nodes, int degree, int groupSize, ProtocolChoice protocol, int r, double c, int stagger,
                      boolean nak, String loss, LossScope lossScope) {

    static final double RATE_PER_NODE = 1000;
    static final int PAYLOAD = 1024;
    static final long LATENCY_NS = 50_000;
    static final double DRAIN_SECONDS = 1;

    /** The paper's (n, d, s) with its defaults: Ricochet, (r, c) = (8, 5), stagger 1, LEC alone, uniform 1 %. */
    public static Setting of(int nodes, int degree, int groupSize) {
        return new Setting(nodes, degree, groupSize, ProtocolChoice.RICOCHET, 8, 5, 1, false, "uniform:0.01",
                LossScope.DATA);
    }

    public Setting degree(int d) {
        return new Setting(nodes, d, groupSize, protocol, r, c, stagger, nak, loss, lossScope);
    }

    public Setting groupSize(int s) {
        return new Setting(nodes, degree, s, protocol, r, c, stagger, nak, loss, lossScope);
    }

    public Setting protocol(ProtocolChoice p) {
        return new Setting(nodes, degree, groupSize, p, r, c, stagger, nak, loss, lossScope);
    }

    public Setting rateOfFire(int newR, double newC) {
        return new Setting(nodes, degree, groupSize, protocol, newR, newC, stagger, nak, loss, lossScope);
    }

    public Setting stagger(int s) {
        return new Setting(nodes, degree, groupSize, protocol, r, c, s, nak, loss, lossScope);
    }

    public Setting nak(boolean on) {
        return new Setting(nodes, degree, groupSize, protocol, r, c, stagger, on, loss, lossScope);
    }

    /** The loss model in {@code ricochet simulate --loss} syntax, e.g. {@code bursty:0.01:100}. */
    public Setting loss(String spec) {
        return new Setting(nodes, degree, groupSize, protocol, r, c, stagger, nak, spec, lossScope);
    }

    /** Which packets the loss model drops: data only (the default), or every packet (repairs, NAKs ... too). */
    public Setting lossScope(LossScope scope) {
        return new Setting(nodes, degree, groupSize, protocol, r, c, stagger, nak, loss, scope);
    }

    /** The run of this setting lasting {@code seconds} of measured traffic, with {@code seed}. */
    public SimConfig config(double seconds, long seed) {
        RicochetConfig engine = RicochetConfig.builder().r(r).c(c).stagger(stagger).nakEnabled(nak).maxPayload(PAYLOAD)
                .build();
        return new SimConfig(nodes, degree, groupSize, protocol.factory(engine, PAYLOAD), LossSpec.parse(loss),
                lossScope, seconds, DRAIN_SECONDS, RATE_PER_NODE, PAYLOAD, LATENCY_NS, seed);
    }

    /** The equivalent {@code ricochet simulate} flags (without duration and seed), for the report. */
    public String flags() {
        return String.format(java.util.Locale.ROOT,
                "--protocol %s --nodes %d --degree %d --group-size %d --r %d --c %s --stagger %d --nak %s --loss %s"
                        + " --loss-scope %s", protocol.cliName(), nodes, degree, groupSize, r, Numbers.plain(c),
                stagger, nak ? "on" : "off", loss, lossScope.name().toLowerCase(java.util.Locale.ROOT));
    }
}
