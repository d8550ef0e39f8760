/** {@code bench lt-codes}: the LT code's decoding inefficiency and its speed against interleaved Reed-Solomon. */
package io.ricochet.bench.fountain;
