package io.ricochet.bench.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench vs-jgroups throughput}: one sender to N receivers in one group, no loss; the sender sends as fast as
 * its system takes messages. Per trial: deliveries per second per receiver in the window and CPU per delivery.
 */
@Command(name = "throughput", sortOptions = false,
        description = {
            "One sender -> --receivers receivers, one group, for each --link, --loss, --sizes, --packaging and "
                + "system; the sender sends as fast as its system accepts (Ricochet: LocalNode.send waiting for the "
                + "daemon, at most 1024 in flight; JGroups: JChannel.send). Writes throughput.json and "
                + "throughput.md (a table per link and loss) under --out: messages/s per receiver in the window, CPU "
                + "(all member processes, whole process) per delivery, latency from send to delivery p50/p99/p99.9, "
                + "delivered/expected, and on a real link the packets nftables dropped and the kernel lost "
                + "(receive buffers full).",
            "",
            "Ricochet runs as the package configures it: every daemon setting at its default but addressing, "
                + "datagrams authenticated with a key file the run makes, mutual TLS to its GMS with certificates "
                + "from scripts/certs. --ricochet-set makes a named variant.",
            "",
            "--link mtu=N (root; needs ip and nft, 'apt-get install -y nftables'): each member in a network "
                + "namespace of its own (vsjg-m<id>, 198.18.0.<id>), veth pairs of MTU N on a bridge in a namespace "
                + "of its own (vsjg-br), Ricochet's GMS in vsjg-gms; loss by nftables at each receiver's veth "
                + "ingress, per IP packet (fragments one by one), the same for both systems, their own injectors "
                + "off; all removed by name at the end, on failure and on ctrl-C. --link loopback: 127.0.0.x in "
                + "the caller's namespace, loss by each system's own injector.",
            "",
        })
public final class ThroughputCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private TrialOptions options;

    @Option(names = "--systems", paramLabel = "S", split = ",",
            defaultValue = "jgroups,jgroups-link,jgroups-encrypt,ricochet",
            converter = TrialOptions.SystemConverter.class,
            description = "jgroups (stock udp.xml), jgroups-link (bundles and fragments that fit the link's MTU, "
                    + "xmit_interval 100ms), jgroups-encrypt (jgroups-link + SYM_ENCRYPT), jgroups-tuned (udp.xml, "
                    + "xmit_interval 100ms), ricochet (defaults, authenticated) (default: ${DEFAULT-VALUE})")
    private List<SystemKind> systems;

    @Option(names = "--link", paramLabel = "L", split = ",", defaultValue = "loopback",
            converter = TrialOptions.LinkConverter.class,
            description = "loopback, or mtu=N for a real link of MTU N (e.g. mtu=1500,mtu=9000; root) "
                    + "(default: ${DEFAULT-VALUE})")
    private List<Link> links;

    @Option(names = "--loss", paramLabel = "RATE", split = ",", defaultValue = "0",
            description = "loss rates, e.g. 0,0.001,0.01: on a real link nftables drops each UDP packet arriving at "
                    + "a receiver with this probability; on loopback each system's injector drops data messages "
                    + "(default: ${DEFAULT-VALUE})")
    private List<Double> losses;

    @Option(names = "--sizes", paramLabel = "BYTES", split = ",", defaultValue = "1000,64",
            description = "message sizes in bytes; Ricochet's must fit its default payload (1024, messages of at "
                    + "most 1023 bytes) unless a variant sets it (default: ${DEFAULT-VALUE})")
    private List<Integer> sizes;

    @Option(names = "--receivers", paramLabel = "N", defaultValue = "3",
            description = "receiving members (default: ${DEFAULT-VALUE})")
    private int receivers;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "the measured window (default: ${DEFAULT-VALUE})")
    private double seconds;

    @Option(names = "--rate", paramLabel = "MSGS", defaultValue = "0",
            description = "messages per second the sender offers, paced (0, the default: as fast as its system takes "
                    + "them); latency at a rate below the maximum is the system's, not its send queue's")
    private double rate;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
            description = "runs of every trial, the systems' order reversed every other round, so a comparison "
                    + "is not one draw of a noisy host (default: ${DEFAULT-VALUE}; the tables list trials in run "
                    + "order)")
    private int rounds;

    @Override
    public Integer call() throws Exception {
        List<Comparison.Spec> specs = specs();
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("receivers", receivers);
        parameters.put("sizes", sizes);
        parameters.put("seconds", seconds);
        parameters.put("rounds", rounds);
        parameters.put("rate", rate);
        parameters.put("warmupSeconds", options.warmupSeconds);
        parameters.put("drainSeconds", options.drainSeconds);
        parameters.put("ttl", options.ttl);
        parameters.put("links", links.stream().map(Link::toString).toList());
        parameters.put("losses", losses);
        Comparison.run("throughput", "bench " + String.join(" ", spec.commandLine().getParseResult().originalArgs()),
                parameters, specs, options.out,
                List.of("size (B)", "packaging", "system", "receivers", "msgs/s per receiver", "slowest",
                        "CPU us/delivery", "p50 (ms)", "p99 (ms)", "p99.9 (ms)", "delivered/expected",
                        "dropped by nft (frags)", "kernel rcvbuf drops"),
                ThroughputCommand::row);
        return 0;
    }

    /** A trial's cells in the table. */
    static List<String> row(TrialSummary s) {
        Map<String, Long> net = s.conditions().network();
        boolean link = !s.conditions().link().equals("loopback");
        return List.of(Integer.toString(s.payloadBytes()), s.packaging(), s.variant(),
                Integer.toString(s.members() - 1), Comparison.num(s.perReceiverPerSecond(), 0),
                Comparison.num(s.minPerReceiverPerSecond(), 0), Comparison.num(s.cpuMicrosPerDelivery(), 2),
                Comparison.num(s.latencyMs().p50(), 2), Comparison.num(s.latencyMs().p99(), 2),
                Comparison.num(s.latencyP999Ms(), 2), Comparison.num(s.deliveredRatio(), 4),
                link ? (net.getOrDefault("nft.udp_dropped", 0L) + net.getOrDefault("nft.frag_dropped", 0L)) + " ("
                        + net.getOrDefault("nft.frag_dropped", 0L) + ")" : "-",
                link ? Long.toString(net.getOrDefault("kernel.Udp.RcvbufErrors", 0L)) : "-");
    }

    /**
     * Every trial, validated before any runs: every link, loss, size, packaging and system, once per round (trials of
     * one link together, so its namespaces are made once).
     */
    List<Comparison.Spec> specs() {
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new ParameterException(spec.commandLine(), "--rate " + rate + ": must be 0 (as fast as taken) or a "
                    + "positive number of messages per second");
        }
        if (rounds < 1 || rounds > 20) {
            throw new ParameterException(spec.commandLine(), "--rounds " + rounds + ": must be in 1..20");
        }
        List<Comparison.Spec> specs = new ArrayList<>();
        try {
            for (double loss : losses) {
                NetLab.perMillion(loss);
            }
            for (Link link : links) {
                if (link.real() && options.packagings.contains(Packaging.INPROCESS)) {
                    throw new IllegalArgumentException("--link " + link + ": on a real link every member runs in a "
                            + "namespace of its own; use --packaging processes");
                }
                for (double loss : losses) {
                    for (int round = 0; round < rounds; round++) {
                        List<SystemKind> order = new ArrayList<>(systems);
                        if (round % 2 == 1) {
                            java.util.Collections.reverse(order);
                        }
                        for (int size : sizes) {
                            for (Packaging packaging : options.packagings) {
                                for (SystemKind system : order) {
                                    specs.add(new Comparison.Spec(packaging, plans(system, size, specs.size(), link,
                                            loss), link, loss));
                                }
                            }
                        }
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return specs;
    }

    private List<MemberPlan> plans(SystemKind system, int size, int trial, Link link, double loss) {
        List<MemberPlan> plans = new ArrayList<>();
        for (int id = 1; id <= receivers + 1; id++) {
            plans.add(new MemberPlan(system, id, receivers + 1, List.of(1),
                    id != 1 ? MemberPlan.Sending.NONE : rate > 0 ? MemberPlan.Sending.PACED : MemberPlan.Sending.FLOOD,
                    rate, size,
                    options.warmupSeconds, seconds, options.drainSeconds, link.real() ? 0 : loss, options.seed,
                    options.ttl, options.gmsPort(trial), options.basePort(trial), options.ricochetSettings,
                    link.mtu(), options.credentials()));
        }
        return plans;
    }
}
