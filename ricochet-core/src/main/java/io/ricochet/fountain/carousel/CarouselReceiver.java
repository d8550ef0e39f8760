package io.ricochet.fountain.carousel;

import io.ricochet.fountain.LtDecoder;
import java.util.Arrays;

/**
 * The receiving side of the carousel: takes symbol messages in any order from any point of the stream, keeps those
 * of one file (the one asked for, or the first seen), decodes it with an {@link LtDecoder}, and checks the result
 * against the file's SHA-256. Every message is validated ({@link SymbolMessage#parse}); the bad ones are counted
 * and the last reason kept. Memory is bounded by {@code maxBytes}: about three times the file (message, and a pool
 * of up to 2k waiting symbols).
 */
public final class CarouselReceiver {
    /** What one message did. */
    public enum Outcome {
        /** Refused: malformed, or the file's header differs from the one taken ({@link #lastProblem()}). */
        MALFORMED,
        /** A well-formed symbol of another file: ignored. */
        OTHER_FILE,
        /** Taken by the decoder (or redundant, or refused by its full pool); the file is not whole yet. */
        TAKEN,
        /** The file is decoded and its SHA-256 matches: {@link #content()}. */
        COMPLETE,
        /** The file is decoded but its SHA-256 does not match: the symbols were not what the sender encoded. */
        CORRUPT
    }

    private final long maxBytes;
    private final Long wantedFileId;
    private CarouselFile file;
    private LtDecoder decoder;
    private Outcome end;
    private byte[] content;
    private long malformed;
    private long otherFile;
    private long offered;
    private String lastProblem;

    /**
     * @param maxBytes     the largest file accepted (1 .. 2^30)
     * @param wantedFileId the file to take, or null for the first one seen
     */
    public CarouselReceiver(long maxBytes, Long wantedFileId) {
        if (maxBytes < 1 || maxBytes > 1L << 30) {
            throw new IllegalArgumentException("max bytes " + maxBytes + " is not in 1.." + (1L << 30));
        }
        this.maxBytes = maxBytes;
        this.wantedFileId = wantedFileId;
    }

    /** Takes one application message. Once the file is complete or corrupt, that outcome is returned again. */
    public Outcome offer(byte[] message) {
        if (end != null) {
            return end;
        }
        offered++;
        SymbolMessage.Parsed parsed = SymbolMessage.parse(message, maxBytes);
        if (parsed instanceof SymbolMessage.Parsed.Malformed bad) {
            return malformed(bad.reason());
        }
        SymbolMessage.Parsed.Symbol symbol = (SymbolMessage.Parsed.Symbol) parsed;
        CarouselFile of = symbol.file();
        if (file == null) {
            if (wantedFileId != null && of.fileId() != wantedFileId) {
                otherFile++;
                return Outcome.OTHER_FILE;
            }
            start(of);
        } else if (!file.equals(of)) {
            if (of.fileId() != file.fileId()) {
                otherFile++;
                return Outcome.OTHER_FILE;
            }
            return malformed("a symbol of file " + of.fileIdHex() + " with another header than the first: " + of);
        }
        decoder.receive(symbol.id(), symbol.message(), SymbolMessage.HEADER_LENGTH, file.symbolSize());
        return decoder.isComplete() ? finish() : Outcome.TAKEN;
    }

    private void start(CarouselFile first) {
        file = first;
        int k = first.k();
        // The pool of waiting symbols: 2k is plenty (docs/design/fountain.md), within one array's reach.
        int pool = (int) Math.min(2L * k, Integer.MAX_VALUE / first.symbolSize());
        decoder = new LtDecoder(k, first.symbolSize(), first.c(), first.delta(), first.seed(), pool);
    }

    private Outcome finish() {
        byte[] decoded = decoder.message();
        if (file.hashMatches(Sha256.of(decoded, 0, (int) file.length()))) {
            content = Arrays.copyOf(decoded, (int) file.length());
            end = Outcome.COMPLETE;
        } else {
            end = Outcome.CORRUPT;
        }
        decoder = null; // its memory is no longer needed
        return end;
    }

    private Outcome malformed(String reason) {
        malformed++;
        lastProblem = reason;
        return Outcome.MALFORMED;
    }

    /** The file being received, or null before its first symbol. */
    public CarouselFile file() {
        return file;
    }

    /** The decoded file, once {@link Outcome#COMPLETE}; else null. */
    public byte[] content() {
        return content;
    }

    /** Source symbols known so far (k once complete). */
    public int known() {
        return file == null ? 0 : decoder == null ? file.k() : decoder.known();
    }

    /** Messages offered (before the end). */
    public long offered() {
        return offered;
    }

    /** Messages refused as malformed. */
    public long malformed() {
        return malformed;
    }

    /** Well-formed symbols of other files, ignored. */
    public long otherFile() {
        return otherFile;
    }

    /** Why the last malformed message was refused, or null. */
    public String lastProblem() {
        return lastProblem;
    }
}
