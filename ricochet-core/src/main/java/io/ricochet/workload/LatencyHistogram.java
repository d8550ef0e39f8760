package io.ricochet.workload;

import io.ricochet.latency.LatencyStats;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * End-to-end delivery latencies in microseconds (HdrHistogram, 3 significant digits) that survive a trip through
 * a JSON file: {@link #encode()} gives compressed base64, {@link #decode} reads it back and {@link #add} merges
 * nodes' histograms, so cluster-wide percentiles are exact rather than averages of per-node percentiles.
 */
public final class LatencyHistogram {
    private static final long HIGHEST_MICROS = 3_600_000_000L;

    private final Histogram histogram;

    public LatencyHistogram() {
        this(new Histogram(HIGHEST_MICROS, 3));
    }

    private LatencyHistogram(Histogram histogram) {
        this.histogram = histogram;
    }

    /** Records one latency; negative values (clock steps) count as 0, values above an hour as an hour. */
    public void recordMicros(long micros) {
        histogram.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, micros)));
    }

    /** Adds every recording of {@code other}. */
    public void add(LatencyHistogram other) {
        histogram.add(other.histogram);
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** Count, mean, p50, p99 and max in milliseconds, as {@code ricochet stats} reports latencies. */
    public LatencyStats.Summary summary() {
        if (count() == 0) {
            return new LatencyStats.Summary(0, 0, 0, 0, 0);
        }
        return new LatencyStats.Summary(count(), ms(histogram.getMean()), ms(histogram.getValueAtPercentile(50)),
                ms(histogram.getValueAtPercentile(99)), ms(histogram.getMaxValue()));
    }

    /** The latency at {@code percentile} (0..100, e.g. 99.9) in milliseconds; 0 when nothing was recorded. */
    public double percentileMs(double percentile) {
        return count() == 0 ? 0 : ms(histogram.getValueAtPercentile(percentile));
    }

    private static double ms(double micros) {
        return Math.round(micros) / 1000.0;
    }

    /** The histogram, compressed, as base64. */
    public String encode() {
        return LatencyStats.encode(histogram);
    }

    /**
     * Reads what {@link #encode()} wrote.
     *
     * @throws IllegalArgumentException if {@code base64} is not an encoded histogram
     */
    public static LatencyHistogram decode(String base64) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
            Histogram read = Histogram.decodeFromCompressedByteBuffer(buffer, HIGHEST_MICROS);
            LatencyHistogram result = new LatencyHistogram();
            result.histogram.add(read);
            return result;
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an encoded latency histogram (" + e.getMessage() + ")");
        }
    }
}
