package io.ricochet.bench.jmh;

import io.ricochet.engine.MembershipEvent;
import io.ricochet.lec.MultiGroupView;
import io.ricochet.lec.NeighbourRegion;
import io.ricochet.lec.RepairPlan;
import io.ricochet.sim.Workload;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Algorithm 1 ({@link RepairPlan#compute}) over node 0's regions in an (n = 64, d, s = 10) membership, c = 5:
 * what the engine runs once after each membership change.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RepairPlanBenchmark {
    @Param({"16", "128", "1024"})
    public int degree;

    private MultiGroupView view;
    private List<NeighbourRegion> regions;

    @Setup
    public void setUp() {
        Workload workload = Memberships.workload(degree);
        view = new MultiGroupView(Memberships.SELF);
        for (MembershipEvent event : Memberships.joinsSeenBy(workload, Memberships.SELF)) {
            view.join(event.group(), event.node());
        }
        regions = view.regions();
        System.out.printf("%n[plan d=%d] regions=%d%n", degree, regions.size());
    }

    @Benchmark
    public RepairPlan compute() {
        return RepairPlan.compute(regions, view::groupSize, g -> 5.0);
    }
}
