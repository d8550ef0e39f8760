package io.ricochet.bench.jmh;

import io.ricochet.wire.Bytes;
import java.util.SplittableRandom;
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

/** The XOR kernel repairs are built and decoded with: {@link Bytes#xorInto} of {@code length} bytes. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class XorBenchmark {
    @Param({"64", "512", "1024", "1400"})
    public int length;

    private final byte[] dst = new byte[1400];
    private final byte[] src = new byte[1400];

    @Setup
    public void setUp() {
        SplittableRandom rng = new SplittableRandom(Memberships.SEED);
        rng.nextBytes(dst);
        rng.nextBytes(src);
    }

    @Benchmark
    public byte[] xorInto() {
        Bytes.xorInto(dst, 0, src, 0, length);
        return dst;
    }
}
