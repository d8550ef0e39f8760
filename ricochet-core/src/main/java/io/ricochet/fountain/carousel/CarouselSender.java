package io.ricochet.fountain.carousel;

import io.ricochet.fountain.LtEncoder;

/**
 * The sending side of the carousel: a file's bytes, hashed and LT-encoded, and the symbol message of any symbol id.
 * The caller sends ids 0, 1, 2, ... for as long as it likes; which of them a receiver gets does not matter.
 */
public final class CarouselSender {
    private final CarouselFile file;
    private final LtEncoder encoder;
    private final byte[] symbol;

    /**
     * @param content    the file (kept, not copied: the caller leaves it unchanged)
     * @param symbolSize bytes per symbol
     * @param c          robust soliton c
     * @param delta      robust soliton delta
     * @param seed       the code's seed
     * @param maxBytes   the largest file allowed
     * @throws IllegalArgumentException if the file or a parameter is out of bounds (the message says which)
     */
    public CarouselSender(byte[] content, int symbolSize, double c, double delta, long seed, long maxBytes) {
        this.file = new CarouselFile(content.length, Sha256.of(content, 0, content.length), symbolSize, c, delta,
                seed, maxBytes);
        this.encoder = new LtEncoder(content, 0, content.length, symbolSize, c, delta, seed);
        this.symbol = new byte[symbolSize];
    }

    public CarouselFile file() {
        return file;
    }

    /** The symbol message of symbol {@code id} (0 or more). */
    public byte[] message(long id) {
        encoder.encode(id, symbol, 0);
        return SymbolMessage.encode(file, id, symbol, 0);
    }
}
