package io.ricochet.cli;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.ricochet.daemon.DaemonCounter;
import io.ricochet.engine.Counter;
import io.ricochet.latency.LatencyStats;
import io.ricochet.protocols.ProtocolChoice;
import io.ricochet.sim.SimResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a {@link SimResult}: pretty-printed, fields in a fixed order, no wall-clock figures, so the same
 * configuration and seed always give byte-identical output. The last recovery-histogram bin is open-ended: its
 * {@code toMs} is written as {@code null}, JSON having no infinity.
 */
public final class ResultJson {

    private static final ObjectWriter WRITER = new ObjectMapper().writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));

    private ResultJson() {
    }

    /**
     * The result as ordered JSON values (maps, lists, numbers, strings, booleans), to embed in a larger document.
     *
     * @param result a simulation result
     * @return a new mutable map, top-level fields in a fixed order
     */
    public static Map<String, Object> toMap(SimResult result) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("parameters", result.parameters());
        json.put("seed", result.parameters().get("seed"));
        json.put("dataPackets", result.dataPackets());
        json.put("losses", result.losses());
        json.put("lecRecovered", result.lecRecovered());
        json.put("nakRecovered", result.nakRecovered());
        boolean fountain = result.parameters().containsKey("fountainBackup");
        if (fountain) {
            json.put("fountainRecovered", result.fountainRecovered());   // only then, so other runs keep their bytes
        }
        json.put("lateArrivals", result.lateArrivals());
        json.put("unrecovered", result.unrecovered());
        json.put("lecRecoveryPercent", result.lecRecoveryPercent());
        json.put("nakRecoveryPercent", result.nakRecoveryPercent());
        json.put("unrecoveredPercent", result.unrecoveredPercent());
        json.put("recoveryLatencyMs", latency(result.recoveryLatencyMs()));
        json.put("lecRecoveryLatencyMs", latency(result.lecRecoveryLatencyMs()));
        json.put("nakRecoveryLatencyMs", latency(result.nakRecoveryLatencyMs()));
        if (fountain) {
            json.put("fountainRecoveryLatencyMs", latency(result.fountainRecoveryLatencyMs()));
        }
        json.put("discoveryLatencyMs", latency(result.discoveryLatencyMs()));
        json.put("overheadPercent", result.overheadPercent());
        json.put("controlPerNodePerSecond", result.controlPerNodePerSecond());
        json.put("xorsPerDataPacket", result.xorsPerDataPacket());
        json.put("corruptDeliveries", result.corruptDeliveries());
        json.put("duplicateDeliveries", result.duplicateDeliveries());
        json.put("verified", result.verified());
        json.put("simulatedEvents", result.simulatedEvents());
        json.put("recoveryHistogram", histogram(result.recoveryHistogram()));
        json.put("counters", counters(result.counters()));
        return json;
    }

    /**
     * The result as pretty-printed JSON text, ending with a newline.
     *
     * @param result a simulation result
     * @return the JSON document
     */
    public static String toJson(SimResult result) {
        return write(toMap(result));
    }

    /**
     * Any document built of JSON values, pretty-printed the same way, ending with a newline.
     *
     * @param document maps, lists, numbers, strings, booleans and nulls
     * @return the JSON text
     */
    public static String write(Object document) {
        try {
            return WRITER.writeValueAsString(document) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise to JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@link #toJson(SimResult)} to {@code file} in UTF-8, replacing it.
     *
     * @param result a simulation result
     * @param file   where to write
     * @throws IOException if the file cannot be written
     */
    public static void write(SimResult result, Path file) throws IOException {
        Files.writeString(file, toJson(result), StandardCharsets.UTF_8);
    }

    private static Map<String, Object> latency(LatencyStats.Summary summary) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("count", summary.count());
        json.put("mean", summary.mean());
        json.put("p50", summary.p50());
        json.put("p99", summary.p99());
        json.put("max", summary.max());
        return json;
    }

    private static List<Map<String, Object>> histogram(List<SimResult.HistogramBin> bins) {
        List<Map<String, Object>> json = new ArrayList<>(bins.size());
        for (SimResult.HistogramBin bin : bins) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("fromMs", bin.fromMs());
            b.put("toMs", Double.isInfinite(bin.toMs()) ? null : bin.toMs());
            b.put("lec", bin.lec());
            b.put("nak", bin.nak());
            json.add(b);
        }
        return json;
    }

    /**
     * The counters block has the same columns for every protocol, so result files of different protocols line up
     * (the bench tabulates them side by side): every protocol's counters, and the receive-buffer drops a driver
     * counts (none in the simulator, which models no receive buffer), in id order, 0 where the run's protocol has
     * no such counter; then any counter the run has beyond those (the fountain backup's, when it is on).
     */
    private static Map<String, Long> counters(Map<Counter, Long> counters) {
        List<Counter> columns = new ArrayList<>(ProtocolChoice.allCounters());
        columns.add(DaemonCounter.RX_BUFFER_RANDOM_DROPS);
        columns.sort(Comparator.comparingInt(Counter::id));
        Map<String, Long> json = new LinkedHashMap<>();
        for (Counter counter : columns) {
            json.put(counter.name(), counters.getOrDefault(counter, 0L));
        }
        // Counters only some runs have (the fountain backup's, when it is on) follow, so other runs keep their bytes.
        counters.forEach((counter, value) -> json.putIfAbsent(counter.name(), value));
        return json;
    }
}
