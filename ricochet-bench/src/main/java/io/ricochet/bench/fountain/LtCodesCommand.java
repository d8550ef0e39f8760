package io.ricochet.bench.fountain;

import io.ricochet.bench.OptionChecks;
import io.ricochet.bench.experiment.RunInfo;
import io.ricochet.bench.load.JsonFiles;
import io.ricochet.fec.ErasureBlock;
import io.ricochet.fec.ReedSolomonDecoder;
import io.ricochet.fec.ReedSolomonEncoder;
import io.ricochet.fountain.LtDecoder;
import io.ricochet.fountain.LtEncoder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench lt-codes}: how many encoding symbols an LT decoder needs (inefficiency = symbols / k) over seeded runs,
 * with inactivation decoding and with peeling alone, and encode / decode speed against the project's Reed-Solomon
 * code interleaved over the same file, as the Digital Fountain paper compares Tornado codes (section 5, tables 1-2).
 */
@Command(name = "lt-codes",
        sortOptions = false,
        description = {
            "Measures the LT code (io.ricochet.fountain): decoding inefficiency (encoding symbols needed / k) over "
                + "--runs seeded runs per k, with inactivation decoding and with peeling alone; then encode and "
                + "decode speed in MB/s against Reed-Solomon interleaved over the same file (blocks of --rs-data "
                + "data and as many repairs), both at stretch 2, decoding from half the symbols with each lost at "
                + "random. Symbols of the inefficiency runs carry no payload (the structure alone decides it).",
            "",
        })
public final class LtCodesCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--k", paramLabel = "K", split = ",", defaultValue = "1000,10000",
            description = "Source symbols of the inefficiency runs (default: ${DEFAULT-VALUE}).")
    private List<Integer> ks;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "1000",
            description = "Seeded runs per k and decoder (seeds 0 .. N-1; default: ${DEFAULT-VALUE}).")
    private int runs;

    @Option(names = "--c", paramLabel = "C", defaultValue = "0.03",
            description = "Robust soliton c (default: ${DEFAULT-VALUE}).")
    private double c;

    @Option(names = "--delta", paramLabel = "D", defaultValue = "0.001",
            description = "Robust soliton delta (default: ${DEFAULT-VALUE}).")
    private double delta;

    @Option(names = "--speed-mb", paramLabel = "MB", split = ",", defaultValue = "1,10",
            description = "File sizes of the speed runs in MB, 0 for none (default: ${DEFAULT-VALUE}).")
    private List<Integer> speedMb;

    @Option(names = "--symbol", paramLabel = "BYTES", defaultValue = "1024",
            description = "Bytes per symbol or packet in the speed runs (default: ${DEFAULT-VALUE}).")
    private int symbol;

    @Option(names = "--rs-data", paramLabel = "N", defaultValue = "32",
            description = "Data packets per Reed-Solomon block, 1..128 (default: ${DEFAULT-VALUE}).")
    private int rsData;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
            description = "Speed measurements per size and code; the median is reported (default: "
                    + "${DEFAULT-VALUE}).")
    private int repeat;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the results as JSON here.")
    private Path out;

    @Override
    public Integer call() throws Exception {
        check(ks.stream().allMatch(k -> k >= 1 && k <= 10_000_000), "--k " + ks + ": each must be in 1..10000000");
        check(runs >= 1, "--runs " + runs + ": must be at least 1");
        check(c > 0 && delta > 0 && delta < 1, "--c " + c + " --delta " + delta + ": need c > 0, 0 < delta < 1");
        check(speedMb.stream().allMatch(m -> m >= 0 && m <= 1024), "--speed-mb " + speedMb + ": each in 0..1024");
        check(symbol >= 8 && symbol <= 65_536, "--symbol " + symbol + ": must be in 8..65536");
        check(rsData >= 1 && rsData <= 128, "--rs-data " + rsData + ": must be in 1..128");
        check(repeat >= 1, "--repeat " + repeat + ": must be at least 1");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("c", c);
        doc.put("delta", delta);
        doc.put("runs", runs);
        List<Map<String, Object>> inefficiency = new ArrayList<>();
        System.out.printf(Locale.ROOT, "%-8s %-12s %8s %8s %8s %8s %8s %12s%n", "k", "decoder", "mean", "p50", "p99",
                "max", "<=1.10k", "ms/run");
        for (int k : ks) {
            for (boolean inactivation : new boolean[] {true, false}) {
                Map<String, Object> row = inefficiency(k, inactivation);
                inefficiency.add(row);
                System.out.printf(Locale.ROOT, "%-8d %-12s %8.4f %8.4f %8.4f %8.4f %8.3f %12.1f%n", k,
                        row.get("decoder"), row.get("mean"), row.get("p50"), row.get("p99"), row.get("max"),
                        row.get("within110"), row.get("msPerRun"));
            }
        }
        doc.put("inefficiency", inefficiency);
        List<Map<String, Object>> speed = new ArrayList<>();
        if (speedMb.stream().anyMatch(m -> m > 0)) {
            System.out.printf(Locale.ROOT, "%n%-6s %-22s %12s %12s%n", "MB", "code", "encode MB/s", "decode MB/s");
        }
        for (int mb : speedMb) {
            if (mb == 0) {
                continue;
            }
            for (Map<String, Object> row : List.of(ltSpeed(mb), rsSpeed(mb))) {
                speed.add(row);
                System.out.printf(Locale.ROOT, "%-6d %-22s %12.1f %12.1f%n", mb, row.get("code"),
                        row.get("encodeMBps"), row.get("decodeMBps"));
            }
        }
        doc.put("speed", speed);
        doc.put("machine", RunInfo.thisMachine());
        if (out != null) {
            JsonFiles.write(out, doc);
        }
        return 0;
    }

    private void check(boolean ok, String message) {
        new OptionChecks(spec).check(ok, message);
    }

    /** Runs seeds 0 .. runs-1 of a payload-free code of k symbols; symbols fed in id order from 0, none lost. */
    private Map<String, Object> inefficiency(int k, boolean inactivation) {
        double[] needed = new double[runs];
        byte[] none = new byte[0];
        long start = System.nanoTime();
        for (int run = 0; run < runs; run++) {
            LtDecoder decoder = new LtDecoder(k, 0, c, delta, run, 2 * k).inactivation(inactivation);
            long id = 0;
            while (!decoder.isComplete()) {
                if (decoder.receive(id++, none, 0, 0) == LtDecoder.POOL_FULL) {
                    throw new IllegalStateException("k = " + k + " run " + run + ": the pool of 2k filled");
                }
            }
            needed[run] = decoder.received() / (double) k;
        }
        double ms = (System.nanoTime() - start) / 1e6 / runs;
        Arrays.sort(needed);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("k", k);
        row.put("decoder", inactivation ? "inactivation" : "peeling");
        row.put("mean", Arrays.stream(needed).average().orElse(0));
        row.put("p50", needed[(runs - 1) / 2]);
        row.put("p99", needed[(int) Math.ceil(0.99 * runs) - 1]);
        row.put("max", needed[runs - 1]);
        row.put("within110", Arrays.stream(needed).filter(x -> x <= 1.10).count() / (double) runs);
        row.put("msPerRun", ms);
        return row;
    }

    private byte[] file(int mb) {
        byte[] data = new byte[mb << 20];
        new SplittableRandom(mb).nextBytes(data);
        return data;
    }

    /**
     * LT: encoding timed over 2k symbols (stretch 2, as the RS side); decoding timed over a stream of symbols each
     * lost with probability 1/2 (a rateless code is read until it decodes: 3k symbols are made for it).
     */
    private Map<String, Object> ltSpeed(int mb) {
        byte[] data = file(mb);
        LtEncoder encoder = new LtEncoder(data, 0, data.length, symbol, c, delta, 1);
        int k = encoder.k();
        byte[] symbols = new byte[Math.multiplyExact(3 * k, symbol)];
        double[] enc = new double[repeat];
        double[] dec = new double[repeat];
        for (int r = 0; r < repeat; r++) {
            long t0 = System.nanoTime();
            for (int id = 0; id < 2 * k; id++) {
                encoder.encode(id, symbols, id * symbol);
            }
            enc[r] = mbps(data.length, System.nanoTime() - t0);
            for (int id = 2 * k; id < 3 * k; id++) {
                encoder.encode(id, symbols, id * symbol);
            }
            LtDecoder decoder = new LtDecoder(k, symbol, c, delta, 1, 2 * k);
            SplittableRandom loss = new SplittableRandom(r);
            long t1 = System.nanoTime();
            for (int id = 0; !decoder.isComplete(); id++) {
                if (id == 3 * k) {
                    throw new IllegalStateException("LT: 3k symbols at 50 % loss did not decode " + mb + " MB");
                }
                if (loss.nextBoolean()) {
                    decoder.receive(id, symbols, id * symbol, symbol);
                }
            }
            dec[r] = mbps(data.length, System.nanoTime() - t1);
            if (!Arrays.equals(data, 0, data.length, decoder.message(), 0, data.length)) {
                throw new IllegalStateException("LT: the decoded file differs");
            }
        }
        return speedRow(mb, "LT (k=" + k + ")", enc, dec);
    }

    /** Reed-Solomon interleaved: blocks of rsData data and rsData repairs; each block loses half its packets. */
    private Map<String, Object> rsSpeed(int mb) {
        byte[] data = file(mb);
        int packets = (data.length + symbol - 1) / symbol;
        int blocks = (packets + rsData - 1) / rsData;
        byte[][] repairs = new byte[blocks * rsData][];
        ReedSolomonEncoder encoder = new ReedSolomonEncoder(rsData, rsData, symbol);
        ReedSolomonDecoder decoder = new ReedSolomonDecoder(rsData, rsData, symbol);
        ErasureBlock block = new ErasureBlock(rsData, rsData, symbol);
        byte[] rebuilt = new byte[data.length];
        byte[][] packet = new byte[packets][]; // each data packet on its own, as a receiver would hold it
        for (int p = 0; p < packets; p++) {
            packet[p] = Arrays.copyOfRange(data, p * symbol, Math.min(data.length, (p + 1) * symbol));
        }
        double[] enc = new double[repeat];
        double[] dec = new double[repeat];
        for (int r = 0; r < repeat; r++) {
            long t0 = System.nanoTime();
            for (int b = 0; b < blocks; b++) {
                encoder.reset();
                int first = b * rsData;
                int count = Math.min(rsData, packets - first);
                for (int p = 0; p < count; p++) {
                    int at = (first + p) * symbol;
                    encoder.add(data, at, Math.min(symbol, data.length - at));
                }
                for (int j = 0; j < rsData; j++) {
                    repairs[first + j] = Arrays.copyOf(encoder.repair(j), encoder.codedLength());
                }
            }
            enc[r] = mbps(data.length, System.nanoTime() - t0);
            SplittableRandom loss = new SplittableRandom(r);
            long t1 = System.nanoTime();
            for (int b = 0; b < blocks; b++) {
                int first = b * rsData;
                int count = Math.min(rsData, packets - first);
                block.reset(count, symbol);
                int[] order = shuffled(count + rsData, loss);
                // Half of the block's packets arrive (at least the count needed), in random positions.
                int arrive = Math.max(count, (count + rsData) / 2);
                for (int i = 0; i < arrive; i++) {
                    int which = order[i];
                    if (which < count) {
                        block.length(which, packet[first + which].length);
                        block.present(which, packet[first + which], 0);
                    } else {
                        byte[] into = block.addRepair(which - count);
                        System.arraycopy(repairs[first + which - count], 0, into, 0, symbol);
                    }
                }
                for (int p = 0; p < count; p++) {
                    block.length(p, packet[first + p].length);
                }
                if (decoder.decode(block) < 0) {
                    throw new IllegalStateException("RS: block " + b + " did not decode");
                }
                for (int p = 0; p < count; p++) {
                    int at = (first + p) * symbol;
                    System.arraycopy(block.data(p), 0, rebuilt, at, Math.min(symbol, data.length - at));
                }
            }
            dec[r] = mbps(data.length, System.nanoTime() - t1);
            if (!Arrays.equals(data, rebuilt)) {
                throw new IllegalStateException("RS: the decoded file differs");
            }
        }
        return speedRow(mb, "RS interleaved (" + rsData + "+" + rsData + ")", enc, dec);
    }

    private static int[] shuffled(int n, SplittableRandom rng) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    private static double mbps(long bytes, long nanos) {
        return bytes / (double) (1 << 20) / (nanos / 1e9);
    }

    private static Map<String, Object> speedRow(int mb, String code, double[] enc, double[] dec) {
        Arrays.sort(enc);
        Arrays.sort(dec);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("mb", mb);
        row.put("code", code);
        row.put("encodeMBps", enc[enc.length / 2]);
        row.put("decodeMBps", dec[dec.length / 2]);
        return row;
    }
}
