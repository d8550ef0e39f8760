/**
 * {@code bench adaptive-lec}: LEC whose rate-of-fire tunes itself against fixed (8, 5) and SRM-style NAK under a
 * loss that changes over time (issue 36).
 */
package io.ricochet.bench.adaptive;
