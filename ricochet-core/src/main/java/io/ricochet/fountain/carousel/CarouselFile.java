package io.ricochet.fountain.carousel;

import io.ricochet.fountain.LtEncoder;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What every symbol message of one file repeats: the file's length and SHA-256, and the LT code's parameters (symbol
 * size, robust soliton c and delta, seed). A receiver may start at any symbol, so each carries all of it. The file
 * id is the first 8 bytes of the hash. Immutable (the hash is copied in and out).
 */
public final class CarouselFile {
    /** Bytes of a SHA-256. */
    public static final int HASH_LENGTH = 32;
    /**
     * Most source symbols a file may be cut into: bounds the decoder's tables (a few words per symbol) whatever
     * the symbol size; 2^20 symbols of 1 KiB are 1 GiB.
     */
    public static final int MAX_SOURCE_SYMBOLS = 1 << 20;
    /** Largest symbol: a symbol message is one API message, whose length field is 16 bits wide or less. */
    public static final int MAX_SYMBOL_SIZE = 65_535;
    /** Largest robust soliton c accepted (0.01 .. 0.2 in practice, docs/design/fountain.md). */
    public static final double MAX_C = 1.0;

    private final long length;
    private final byte[] sha256;
    private final int symbolSize;
    private final double c;
    private final double delta;
    private final long seed;

    /**
     * @throws IllegalArgumentException if a field is out of bounds ({@link #problem} says which)
     */
    public CarouselFile(long length, byte[] sha256, int symbolSize, double c, double delta, long seed,
                        long maxBytes) {
        String problem = problem(length, sha256.length, symbolSize, c, delta, maxBytes);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        this.length = length;
        this.sha256 = sha256.clone();
        this.symbolSize = symbolSize;
        this.c = c;
        this.delta = delta;
        this.seed = seed;
    }

    /**
     * What is wrong with these fields, or null if nothing: a length in 1..maxBytes, a 32-byte hash, a symbol size
     * in 1..{@value #MAX_SYMBOL_SIZE}, at most {@value #MAX_SOURCE_SYMBOLS} source symbols, 0 &lt; c &lt;= 1 and
     * 0 &lt; delta &lt; 1 (NaN is neither).
     */
    public static String problem(long length, int hashLength, int symbolSize, double c, double delta,
                                 long maxBytes) {
        if (length < 1 || length > maxBytes) {
            return "file length " + length + " is not in 1.." + maxBytes + " bytes";
        }
        if (hashLength != HASH_LENGTH) {
            return "a SHA-256 of " + hashLength + " bytes, not " + HASH_LENGTH;
        }
        if (symbolSize < 1 || symbolSize > MAX_SYMBOL_SIZE) {
            return "symbol size " + symbolSize + " is not in 1.." + MAX_SYMBOL_SIZE + " bytes";
        }
        long k = (length + symbolSize - 1) / symbolSize;
        if (k > MAX_SOURCE_SYMBOLS) {
            return length + " bytes in symbols of " + symbolSize + " bytes make " + k + " source symbols, more than "
                    + MAX_SOURCE_SYMBOLS + ": use larger symbols";
        }
        if (!(c > 0 && c <= MAX_C)) {
            return "robust soliton c " + c + " is not in (0, " + MAX_C + "]";
        }
        if (!(delta > 0 && delta < 1)) {
            return "robust soliton delta " + delta + " is not in (0, 1)";
        }
        return null;
    }

    public long length() {
        return length;
    }

    /** The file's SHA-256 (a copy). */
    public byte[] sha256() {
        return sha256.clone();
    }

    /** The file's SHA-256 in lower-case hex. */
    public String sha256Hex() {
        return HexFormat.of().formatHex(sha256);
    }

    /** The first 8 bytes of the SHA-256, big-endian: how receivers tell files apart. */
    public long fileId() {
        long id = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            id = (id << 8) | (sha256[i] & 0xFF);
        }
        return id;
    }

    /** The file id as 16 hex digits, as {@code --file-id} takes it. */
    public String fileIdHex() {
        return HexFormat.of().toHexDigits(fileId());
    }

    public int symbolSize() {
        return symbolSize;
    }

    public double c() {
        return c;
    }

    public double delta() {
        return delta;
    }

    public long seed() {
        return seed;
    }

    /** Source symbols k. */
    public int k() {
        return LtEncoder.sourceSymbols(length, symbolSize);
    }

    /** Whether the SHA-256 of {@code content} is this file's. */
    boolean hashMatches(byte[] digest) {
        return Arrays.equals(sha256, digest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CarouselFile f && f.length == length && Arrays.equals(f.sha256, sha256)
                && f.symbolSize == symbolSize && Double.compare(f.c, c) == 0 && Double.compare(f.delta, delta) == 0
                && f.seed == seed;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(fileId()) * 31 + symbolSize;
    }

    @Override
    public String toString() {
        return "file " + fileIdHex() + " (" + length + " bytes, " + k() + " symbols of " + symbolSize + ")";
    }
}
