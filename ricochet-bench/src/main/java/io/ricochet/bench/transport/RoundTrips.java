package io.ricochet.bench.transport;

import io.ricochet.client.RicochetClient;
import org.HdrHistogram.Histogram;

/**
 * Request round trips, one at a time on one connection: each is timed from the call to its reply on the caller's
 * thread, so it covers the client's encoding and wake-up, both directions of the transport, and the daemon's work.
 */
final class RoundTrips {
    /** Longest round trip the histogram holds: 10 s. */
    private static final long MAX_NS = 10_000_000_000L;

    private RoundTrips() {
    }

    /** A request whose round trip is timed. */
    enum Request {
        /** SEND of the payload to the group (the daemon multicasts it; a small reply with the seqno). */
        SEND("send"),
        /** STATS (a reply of several KB of JSON, built on the engine's loop). */
        STATS("stats");

        private final String label;

        Request(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }

        void call(RicochetClient client, int group, byte[] payload) {
            if (this == SEND) {
                client.send(group, payload);
            } else {
                client.stats();
            }
        }
    }

    /**
     * Makes {@code warmup} untimed calls, then {@code calls} timed ones.
     *
     * @return the timed round trips in nanoseconds
     */
    static Histogram measure(RicochetClient client, Request request, int group, byte[] payload, int warmup,
            int calls) {
        for (int i = 0; i < warmup; i++) {
            request.call(client, group, payload);
        }
        Histogram histogram = new Histogram(MAX_NS, 3);
        for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            request.call(client, group, payload);
            histogram.recordValue(Math.min(MAX_NS, System.nanoTime() - start));
        }
        return histogram;
    }
}
