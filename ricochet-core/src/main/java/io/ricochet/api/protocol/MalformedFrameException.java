package io.ricochet.api.protocol;

/**
 * A frame that breaks the local-API format. Checked, so every decoder caller decides what to do: the daemon replies
 * with ERROR {@code MALFORMED_FRAME} and closes the connection, the client closes it.
 */
public final class MalformedFrameException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int requestId;

    /**
     * @param requestId the frame's request id if it could be read, else 0
     * @param message   what is wrong, for the ERROR frame and the logs
     */
    public MalformedFrameException(int requestId, String message) {
        super(message, null, false, false);
        this.requestId = requestId;
    }

    public int requestId() {
        return requestId;
    }
}
