package io.ricochet.bench.jmh;

import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.FrameValidator;
import io.ricochet.wire.RepairFlyweight;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Wire format costs: validating a 1 KB DATA frame and reading its fields; writing the header and the 8 entries of an
 * r = 8 repair (with and without copying its 1 KB XOR image); validating that repair.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class WireBenchmark {
    static final int PAYLOAD = 1024;
    static final int R = 8;

    private final byte[] dataFrame = new byte[DataFlyweight.DATA_HEADER_LENGTH + PAYLOAD];
    private final byte[] repairFrame = new byte[RepairFlyweight.frameLength(R, PAYLOAD)];
    private final byte[] xorImage = new byte[PAYLOAD];
    private final DataFlyweight data = new DataFlyweight();
    private final RepairFlyweight repair = new RepairFlyweight();
    private long seqno;

    @Setup
    public void setUp() {
        byte[] payload = new byte[PAYLOAD];
        new SplittableRandom(Memberships.SEED).nextBytes(payload);
        new SplittableRandom(Memberships.SEED + 1).nextBytes(xorImage);
        data.wrap(dataFrame, 0).write(FrameType.DATA, 7, 7, 1234, 987_654_321L, payload, 0, PAYLOAD);
        writeRepair();
        if (FrameValidator.check(dataFrame, 0, dataFrame.length) != FrameValidator.Verdict.OK
                || FrameValidator.check(repairFrame, 0, repairFrame.length) != FrameValidator.Verdict.OK) {
            throw new IllegalStateException("benchmark frames do not validate");
        }
    }

    @Benchmark
    public void dataCheckAndRead(Blackhole bh) {
        bh.consume(FrameValidator.check(dataFrame, 0, dataFrame.length));
        DataFlyweight d = data.wrap(dataFrame, 0);
        bh.consume(d.type());
        bh.consume(d.source());
        bh.consume(d.origin());
        bh.consume(d.group());
        bh.consume(d.seqno());
        bh.consume(d.payloadOffset());
        bh.consume(d.payloadLength());
    }

    /** Header and the r = 8 entries (the XOR image is built in place in a bin, not copied). */
    @Benchmark
    public byte[] repairWriteR8() {
        writeRepair();
        return repairFrame;
    }

    /** Header, the r = 8 entries and a copy of the 1 KB XOR image into the frame. */
    @Benchmark
    public byte[] repairWriteR8WithPayload() {
        writeRepair();
        System.arraycopy(xorImage, 0, repairFrame, repair.payloadOffset(), PAYLOAD);
        return repairFrame;
    }

    @Benchmark
    public FrameValidator.Verdict repairCheckR8() {
        return FrameValidator.check(repairFrame, 0, repairFrame.length);
    }

    private void writeRepair() {
        RepairFlyweight rp = repair.wrap(repairFrame, 0).writeStart(3, R, PAYLOAD);
        long base = seqno++ & 0x3FFF_FFFF_FFFFL;
        for (int i = 0; i < R; i++) {
            rp.entry(i, 10 + i, 1234, base + i, PAYLOAD);
        }
    }
}
