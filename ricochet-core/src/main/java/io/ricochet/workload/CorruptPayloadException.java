package io.ricochet.workload;

/** A delivered payload failed {@link PayloadCodec#decode}; the message says how. */
public final class CorruptPayloadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong with the payload */
    public CorruptPayloadException(String message) {
        super(message, null, false, false);
    }
}
