package io.ricochet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The token bucket, on virtual time. */
class TokenBucketTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldAllowABurstThenTheAverageRate() {
        TokenBucket pacer = new TokenBucket(1000, 10);
        int sent = 0;
        for (int i = 0; i < 100; i++) {
            sent += pacer.tryAcquire(0) ? 1 : 0;
        }
        assertEquals(10, sent, "the burst");
        sent = 0;
        for (long t = 0; t <= 1000 * MS; t += MS / 10) {
            sent += pacer.tryAcquire(t) ? 1 : 0;
        }
        assertTrue(sent >= 999 && sent <= 1001, "about 1000 in the next second: " + sent);
    }

    @Test
    void shouldNeverLimitWhenTheRateIsZero() {
        TokenBucket pacer = new TokenBucket(0, 1);
        for (int i = 0; i < 100_000; i++) {
            assertTrue(pacer.tryAcquire(0));
        }
    }

    @Test
    void shouldSayWhenTheNextTokenComes() {
        TokenBucket bucket = new TokenBucket(1000, 1);
        assertEquals(5 * MS, bucket.availableAtNs(5 * MS), "a full bucket: now");
        assertTrue(bucket.tryAcquire(5 * MS));
        assertEquals(6 * MS, bucket.availableAtNs(5 * MS), "empty: one token a millisecond later");
        assertEquals(6 * MS, bucket.availableAtNs(5 * MS + MS / 2));
        assertTrue(bucket.tryAcquire(6 * MS));
        assertEquals(42, new TokenBucket(0, 1).availableAtNs(42), "unlimited");
    }
}
