package io.ricochet.bench.jmh;

import io.ricochet.fountain.LtDecoder;
import io.ricochet.fountain.LtEncoder;
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
 * The LT code ({@code io.ricochet.fountain}) with 1 KB symbols: one encoding symbol made, and a whole message of k
 * symbols decoded from the symbol stream with half of it lost (the decoder reused, so steady state: no allocation).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LtCodeBenchmark {
    private static final int SYMBOL = 1024;
    private static final double C = 0.03;
    private static final double DELTA = 0.001;

    @Param({"1000", "10000"})
    public int k;

    private LtEncoder encoder;
    private LtDecoder decoder;
    private byte[] symbols;
    private long[] ids;
    private final byte[] out = new byte[SYMBOL];
    private long next;

    @Setup
    public void setUp() {
        byte[] message = new byte[k * SYMBOL];
        new SplittableRandom(Memberships.SEED).nextBytes(message);
        encoder = new LtEncoder(message, 0, message.length, SYMBOL, C, DELTA, 1);
        decoder = new LtDecoder(k, SYMBOL, C, DELTA, 1, 2 * k);
        // The symbols a receiver gets at 50 % loss, enough to decode: 3k made, about 1.5k kept.
        SplittableRandom loss = new SplittableRandom(2);
        int made = 3 * k;
        long[] kept = new long[made];
        int n = 0;
        for (int id = 0; id < made; id++) {
            if (loss.nextBoolean()) {
                kept[n++] = id;
            }
        }
        ids = java.util.Arrays.copyOf(kept, n);
        symbols = new byte[n * SYMBOL];
        for (int i = 0; i < n; i++) {
            encoder.encode(ids[i], symbols, i * SYMBOL);
        }
    }

    @Benchmark
    public byte[] encodeOneSymbol() {
        encoder.encode(next++, out, 0);
        return out;
    }

    @Benchmark
    public int decodeMessage() {
        decoder.reset();
        int i = 0;
        while (!decoder.isComplete()) {
            decoder.receive(ids[i], symbols, i * SYMBOL, SYMBOL);
            i++;
        }
        return i;
    }
}
