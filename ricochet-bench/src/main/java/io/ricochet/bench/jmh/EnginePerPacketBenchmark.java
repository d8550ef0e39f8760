package io.ricochet.bench.jmh;

import io.ricochet.engine.EngineCounter;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.StreamTable;
import io.ricochet.lec.LecCounter;
import io.ricochet.lecnak.RicochetConfig;
import io.ricochet.lecnak.RicochetEngine;
import io.ricochet.sim.Workload;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-data-packet processing time of one {@link RicochetEngine} (the paper's Figure 11): node 0 of an (n = 64,
 * d, s = 10) membership receives 1 KB DATA frames from the other members, round-robin over its groups, with no
 * loss. Each packet is validated, delivered, cached and XOR-ed into every repair bin it belongs to; full bins
 * build repairs (r = 8, c = 5) that go to a no-op outbox.
 *
 * <p>A few thousand frames are built once; after each is fed, its seqno is advanced in place by the number of
 * frames of its stream in the set, so every stream's seqnos keep increasing with no gap as the set is cycled.
 * The trial's XORs per data packet (BIN_XORS / DATA_RECEIVED) are printed at the end of the trial.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class EnginePerPacketBenchmark {
    static final int FRAMES = 4096;
    static final int PAYLOAD = 1024;
    /** Simulated time between two arrivals: 100,000 packets/s. */
    static final long ARRIVAL_GAP_NS = 10_000;

    @Param({"2", "16", "128", "1024"})
    public int degree;

    private RicochetEngine engine;
    private byte[][] frames;
    private long[] strides;
    private int next;
    private long nowNs;

    @Setup(Level.Trial)
    public void setUp() {
        Workload workload = Memberships.workload(degree);
        engine = new RicochetEngine(Memberships.SELF, RicochetConfig.builder().build(), new SplittableRandom(1),
                new NoOpOutbox());
        for (MembershipEvent event : Memberships.joinsSeenBy(workload, Memberships.SELF)) {
            engine.onMembership(event, 0);
        }
        int[] groups = java.util.Arrays.stream(workload.groupsOfNode()[Memberships.SELF])
                .filter(g -> workload.membersOfGroup()[g].length > 1).toArray();
        if (groups.length == 0) {
            throw new IllegalStateException("node 0 shares no group with another node at d = " + degree);
        }
        byte[] payload = new byte[PAYLOAD];
        new SplittableRandom(Memberships.SEED).nextBytes(payload);
        frames = new byte[FRAMES][];
        long[] streamOf = new long[FRAMES];
        Map<Long, Long> nextSeqno = new HashMap<>();
        DataFlyweight data = new DataFlyweight();
        for (int i = 0; i < FRAMES; i++) {
            int group = groups[i % groups.length];
            int[] senders = Memberships.others(workload, group, Memberships.SELF);
            int sender = senders[(i / groups.length) % senders.length];
            long stream = StreamTable.key(sender, group);
            long seqno = nextSeqno.merge(stream, 1L, Long::sum) - 1;
            frames[i] = new byte[DataFlyweight.DATA_HEADER_LENGTH + PAYLOAD];
            data.wrap(frames[i], 0).write(FrameType.DATA, sender, sender, group, seqno, payload, 0, PAYLOAD);
            streamOf[i] = stream;
        }
        strides = new long[FRAMES];
        for (int i = 0; i < FRAMES; i++) {
            strides[i] = nextSeqno.get(streamOf[i]);
        }
        next = 0;
        nowNs = 0;
    }

    @Benchmark
    public void onDataPacket() {
        int i = next;
        byte[] frame = frames[i];
        engine.onPacket(frame, 0, frame.length, nowNs += ARRIVAL_GAP_NS);
        Bytes.putLong(frame, DataFlyweight.SEQNO_OFFSET, Bytes.getLong(frame, DataFlyweight.SEQNO_OFFSET) + strides[i]);
        next = (i + 1) & (FRAMES - 1);
    }

    @TearDown(Level.Trial)
    public void report() {
        long received = engine.counters().get(EngineCounter.DATA_RECEIVED);
        long xors = engine.counters().get(LecCounter.BIN_XORS);
        long anomalies = engine.counters().get(EngineCounter.INVALID_PACKETS)
                + engine.counters().get(EngineCounter.DUPLICATES)
                + engine.counters().get(EngineCounter.OUT_OF_WINDOW)
                + engine.counters().get(EngineCounter.NON_MEMBER)
                + engine.counters().get(EngineCounter.LOSSES_DETECTED);
        System.out.printf("%n[engine d=%d] groups with peers=%d regions=%d data received=%d bin XORs=%d"
                        + " XORs/packet=%.3f repairs built=%d repairs sent=%d anomalies=%d%n",
                degree, engine.view().myGroups().size(), engine.view().regions().size(), received, xors,
                received == 0 ? 0.0 : (double) xors / received,
                engine.counters().get(LecCounter.REPAIRS_BUILT),
                engine.counters().get(LecCounter.REPAIRS_SENT), anomalies);
        if (anomalies != 0 || received == 0) {
            throw new IllegalStateException("the benchmark did not feed a clean stream: " + anomalies
                    + " invalid, duplicate, out-of-window, non-member or lost packets");
        }
    }
}
