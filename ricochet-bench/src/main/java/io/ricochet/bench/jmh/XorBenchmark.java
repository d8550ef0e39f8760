package io.ricochet.bench.jmh;

import io.ricochet.wire.Bytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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

/**
 * The XOR kernel repairs are built and decoded with: {@link Bytes#xorInto} of {@code length} bytes, and the kernel
 * it replaced (words read and written in network byte order) as a reference in the same run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class XorBenchmark {
    private static final VarHandle NETWORK_LONG = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.BIG_ENDIAN);

    @Param({"64", "512", "1024", "1400", "60000"})
    public int length;

    private final byte[] dst = new byte[60000];
    private final byte[] src = new byte[60000];

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

    /** The kernel before: the same loop with big-endian words (a byte swap on every load and store on x86). */
    @Benchmark
    public byte[] xorIntoNetworkOrder() {
        int i = 0;
        for (int end = length - 7; i < end; i += 8) {
            NETWORK_LONG.set(dst, i, (long) NETWORK_LONG.get(dst, i) ^ (long) NETWORK_LONG.get(src, i));
        }
        for (; i < length; i++) {
            dst[i] ^= src[i];
        }
        return dst;
    }
}
