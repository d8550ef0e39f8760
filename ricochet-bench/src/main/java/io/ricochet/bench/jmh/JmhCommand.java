package io.ricochet.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench jmh [JMH options] [benchmark regexps]}: runs the JMH micro-benchmarks of this package through
 * {@link Runner}. Every argument is a JMH command-line option ({@code bench jmh -h} lists them); with no benchmark
 * regexp, every benchmark of {@code io.ricochet.bench.jmh} runs. {@code java -cp ricochet-bench.jar
 * org.openjdk.jmh.Main} works too.
 */
@Command(name = "jmh",
        description = {
            "Runs the JMH micro-benchmarks (engine per packet, XOR, wire, Algorithm 1, datagram MACs).",
            "Arguments are JMH's own, e.g. -rf json -rff out.json EnginePerPacket; 'jmh -h' lists them.",
        })
public final class JmhCommand implements Callable<Integer> {
    @Unmatched
    private List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        CommandLineOptions options = new CommandLineOptions(args.toArray(new String[0]));
        if (options.shouldHelp()) {
            options.showHelp();
            return 0;
        }
        Runner runner = new Runner(options.getIncludes().isEmpty()
                ? new org.openjdk.jmh.runner.options.OptionsBuilder().parent(options)
                        .include("io\\.ricochet\\.bench\\.jmh\\..*").build()
                : options);
        if (options.shouldList()) {
            runner.list();
            return 0;
        }
        if (options.shouldListWithParams()) {
            runner.listWithParams(options);
            return 0;
        }
        if (options.shouldListProfilers() || options.shouldListResultFormats()) {
            org.openjdk.jmh.Main.main(args.toArray(new String[0]));
            return 0;
        }
        return runner.run().isEmpty() ? 1 : 0;
    }
}
