package io.ricochet.fountain;

import io.ricochet.wire.Bytes;

/**
 * The LT encoder (Luby 2002): a message cut into k source symbols of {@code symbolSize} bytes (the last one padded
 * with zeros) yields an endless stream of encoding symbols, symbol {@code id} being the XOR of the source symbols
 * {@link SymbolDraw} picks for that id. Any k(1 + epsilon) of them, whichever they are, let an {@link LtDecoder}
 * rebuild the message: a receiver may start listening at any moment and lose any packets (the digital fountain of
 * Byers, Luby, Mitzenmacher and Rege, SIGCOMM 1998, section 2).
 *
 * <p>Reads the message in place (the caller keeps it unchanged); allocates nothing per symbol. Not thread-safe.
 */
public final class LtEncoder {
    private final byte[] message;
    private final int offset;
    private final int length;
    private final int symbolSize;
    private final SymbolDraw draw;

    /**
     * @param message    the bytes to encode, {@code message[offset .. offset + length)}
     * @param symbolSize bytes per symbol, at least 1
     * @param c          the robust soliton distribution's c ({@link RobustSoliton})
     * @param delta      its delta
     * @param seed       the code's seed; decoders need the same
     */
    public LtEncoder(byte[] message, int offset, int length, int symbolSize, double c, double delta, long seed) {
        if (symbolSize < 1 || length < 1) {
            throw new IllegalArgumentException("a message of " + length + " bytes in symbols of " + symbolSize
                    + ": both must be at least 1");
        }
        this.message = message;
        this.offset = offset;
        this.length = length;
        this.symbolSize = symbolSize;
        this.draw = new SymbolDraw(new RobustSoliton(sourceSymbols(length, symbolSize), c, delta), seed);
    }

    /** The number of source symbols a message of {@code length} bytes makes. */
    public static int sourceSymbols(long length, int symbolSize) {
        long k = (length + symbolSize - 1) / symbolSize;
        if (k > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException(length + " bytes in symbols of " + symbolSize + " bytes: too many");
        }
        return (int) k;
    }

    public int k() {
        return draw.k();
    }

    public int symbolSize() {
        return symbolSize;
    }

    /** Writes encoding symbol {@code id} ({@link #symbolSize()} bytes) at {@code out[at]}; returns its degree. */
    public int encode(long id, byte[] out, int at) {
        java.util.Arrays.fill(out, at, at + symbolSize, (byte) 0);
        int degree = draw.draw(id);
        int[] neighbours = draw.neighbours();
        for (int i = 0; i < degree; i++) {
            long start = (long) neighbours[i] * symbolSize;
            int bytes = (int) Math.min(symbolSize, length - start);
            Bytes.xorInto(out, at, message, offset + (int) start, bytes);
        }
        return degree;
    }
}
