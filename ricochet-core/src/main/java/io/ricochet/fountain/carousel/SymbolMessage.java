package io.ricochet.fountain.carousel;

import io.ricochet.wire.Bytes;

/**
 * One encoding symbol of a carousel file, as one application message (big-endian):
 * <pre>
 *  0  magic "RFTN"         4 bytes
 *  4  version              1 byte, 1
 *  5  reserved             1 byte, 0
 *  6  symbol size T        2 bytes, 1..65535, equal to the bytes after the header
 *  8  file length          8 bytes, 1..max-bytes
 * 16  file SHA-256        32 bytes (its first 8 bytes are the file id)
 * 48  robust soliton c     8 bytes, IEEE 754 double, in (0, 1]
 * 56  robust soliton delta 8 bytes, IEEE 754 double, in (0, 1)
 * 64  code seed            8 bytes
 * 72  symbol id            8 bytes, 0..2^63-1
 * 80  the symbol           T bytes
 * </pre>
 * {@link #parse} trusts nothing: every field is checked, against the receiver's {@code max-bytes} among others,
 * and anything else is {@link Parsed.Malformed} with the reason; it never throws.
 */
public final class SymbolMessage {
    /** "RFTN": Ricochet FounTaiN. */
    public static final int MAGIC = 0x5246544E;
    public static final int VERSION = 1;
    public static final int HEADER_LENGTH = 80;

    private static final int VERSION_OFFSET = 4;
    private static final int RESERVED_OFFSET = 5;
    private static final int SYMBOL_SIZE_OFFSET = 6;
    private static final int LENGTH_OFFSET = 8;
    private static final int HASH_OFFSET = 16;
    private static final int C_OFFSET = 48;
    private static final int DELTA_OFFSET = 56;
    private static final int SEED_OFFSET = 64;
    private static final int ID_OFFSET = 72;

    private SymbolMessage() {
    }

    /** What {@link #parse} found. */
    public sealed interface Parsed {
        /** A well-formed symbol: its file, its id, and its bytes at {@link #HEADER_LENGTH} of {@code message}. */
        record Symbol(CarouselFile file, long id, byte[] message) implements Parsed {
        }

        /** Not a symbol message this receiver can take, and why. */
        record Malformed(String reason) implements Parsed {
        }
    }

    /**
     * The message for symbol {@code id} of {@code file}, whose {@link CarouselFile#symbolSize()} bytes are at
     * {@code symbol[offset]}.
     *
     * @throws IllegalArgumentException if {@code id} is negative
     */
    public static byte[] encode(CarouselFile file, long id, byte[] symbol, int offset) {
        if (id < 0) {
            throw new IllegalArgumentException("symbol id " + id + ": must be 0 or more");
        }
        int t = file.symbolSize();
        byte[] m = new byte[HEADER_LENGTH + t];
        Bytes.putInt(m, 0, MAGIC);
        m[VERSION_OFFSET] = VERSION;
        Bytes.putShort(m, SYMBOL_SIZE_OFFSET, t);
        Bytes.putLong(m, LENGTH_OFFSET, file.length());
        System.arraycopy(file.sha256(), 0, m, HASH_OFFSET, CarouselFile.HASH_LENGTH);
        Bytes.putLong(m, C_OFFSET, Double.doubleToLongBits(file.c()));
        Bytes.putLong(m, DELTA_OFFSET, Double.doubleToLongBits(file.delta()));
        Bytes.putLong(m, SEED_OFFSET, file.seed());
        Bytes.putLong(m, ID_OFFSET, id);
        System.arraycopy(symbol, offset, m, HEADER_LENGTH, t);
        return m;
    }

    /** Parses one message, accepting files of at most {@code maxBytes}; never throws. */
    public static Parsed parse(byte[] m, long maxBytes) {
        if (m.length < HEADER_LENGTH + 1) {
            return malformed(m.length + " bytes, shorter than a header of " + HEADER_LENGTH + " and one byte");
        }
        if (Bytes.getInt(m, 0) != MAGIC) {
            return malformed("no carousel magic (not a symbol message)");
        }
        if (m[VERSION_OFFSET] != VERSION) {
            return malformed("version " + (m[VERSION_OFFSET] & 0xFF) + ", not " + VERSION);
        }
        if (m[RESERVED_OFFSET] != 0) {
            return malformed("reserved byte is " + (m[RESERVED_OFFSET] & 0xFF) + ", not 0");
        }
        int symbolSize = Bytes.getUnsignedShort(m, SYMBOL_SIZE_OFFSET);
        if (symbolSize != m.length - HEADER_LENGTH) {
            return malformed("symbol size " + symbolSize + " but " + (m.length - HEADER_LENGTH) + " symbol bytes");
        }
        long id = Bytes.getLong(m, ID_OFFSET);
        if (id < 0) {
            return malformed("symbol id " + id + " is negative");
        }
        long length = Bytes.getLong(m, LENGTH_OFFSET);
        double c = Double.longBitsToDouble(Bytes.getLong(m, C_OFFSET));
        double delta = Double.longBitsToDouble(Bytes.getLong(m, DELTA_OFFSET));
        String problem = CarouselFile.problem(length, CarouselFile.HASH_LENGTH, symbolSize, c, delta, maxBytes);
        if (problem != null) {
            return malformed(problem);
        }
        byte[] hash = java.util.Arrays.copyOfRange(m, HASH_OFFSET, HASH_OFFSET + CarouselFile.HASH_LENGTH);
        CarouselFile file = new CarouselFile(length, hash, symbolSize, c, delta, Bytes.getLong(m, SEED_OFFSET),
                maxBytes);
        return new Parsed.Symbol(file, id, m);
    }

    private static Parsed malformed(String reason) {
        return new Parsed.Malformed(reason);
    }
}
