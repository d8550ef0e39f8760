/**
 * Digital Fountain benchmarks: {@code bench lt-codes} (the LT code's decoding inefficiency and its speed against
 * interleaved Reed-Solomon) and {@code bench layered} (layered multicast congestion control in the simulator).
 */
package io.ricochet.bench.fountain;
