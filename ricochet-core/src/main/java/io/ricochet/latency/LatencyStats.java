package io.ricochet.latency;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;

/** A latency distribution in microseconds (HdrHistogram, 3 significant digits), reported in milliseconds. */
public final class LatencyStats {
    private final Histogram histogram = new Histogram(3_600_000_000L, 3);

    public void recordNs(long latencyNs) {
        histogram.recordValue(Math.max(0, latencyNs / 1000));
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** Summary in milliseconds: count, mean, p50, p99, max (zeros when empty). */
    public Summary summary() {
        if (histogram.getTotalCount() == 0) {
            return new Summary(0, 0, 0, 0, 0);
        }
        return new Summary(histogram.getTotalCount(), round(histogram.getMean() / 1000.0),
                ms(histogram.getValueAtPercentile(50)), ms(histogram.getValueAtPercentile(99)),
                ms(histogram.getMaxValue()));
    }

    /**
     * Recordings at or above {@code fromMs} and below {@code toMs}. Taken as a difference of counts below each
     * bound, so adjacent ranges never share a recording (HdrHistogram's own range count includes whole buckets
     * at both ends) and a histogram's bins add up to the total.
     */
    public long countBetweenMs(double fromMs, double toMs) {
        return toMs <= fromMs ? 0 : countBelowMs(toMs) - countBelowMs(fromMs);
    }

    private long countBelowMs(double ms) {
        long below = (long) (ms * 1000) - 1;
        if (below < 0 || histogram.getTotalCount() == 0) {
            return 0;
        }
        return histogram.getCountBetweenValues(0, Math.min(below, histogram.getHighestTrackableValue()));
    }

    /**
     * The histogram, compressed, as base64: the format {@code io.ricochet.workload.LatencyHistogram#decode} reads,
     * so the recordings of several daemons can be merged into exact cluster-wide percentiles.
     */
    public String encode() {
        return encode(histogram);
    }

    /** {@code histogram}, compressed, as base64 (shared with {@code io.ricochet.workload.LatencyHistogram}). */
    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static double ms(long micros) {
        return round(micros / 1000.0);
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    /** Latency figures in milliseconds. */
    public record Summary(long count, double mean, double p50, double p99, double max) {
    }
}
