package io.ricochet.daemon;

/**
 * The bounds of large messages and ordered delivery at one daemon (docs/design/daemon.md, "Fragmentation"):
 * every one is memory the daemon may hold.
 *
 * @param maxMessage      the largest message an application may send, in bytes; larger than a datagram, it goes as
 *                        fragments (the daemon's {@code max-message})
 * @param sendQueueBytes  bytes of application sends that may wait for the engine at once ({@code send-queue-bytes});
 *                        at least {@code maxMessage}
 * @param reassemblyBytes bytes of messages being reassembled at once, from every sender ({@code reassembly-buffer});
 *                        at least {@code maxMessage}; one sender may hold half of it, or two messages if that is more
 * @param fifoBytes       bytes of deliveries held for FIFO subscribers at once ({@code fifo-buffer}); past it,
 *                        messages go out of order and {@code FIFO_OUT_OF_ORDER} counts them
 */
public record MessageLimits(int maxMessage, int sendQueueBytes, int reassemblyBytes, int fifoBytes) {
    /**
     * Messages up to 16 MiB; 32 MiB of queue (two such messages), 64 MiB of reassembly (two per sender, so a sender's
     * next message is taken while its last is still being repaired), 16 MiB of FIFO deliveries: 112 MiB at most,
     * which with the packet buffers fits three quarters of the unit's 512 MiB heap.
     */
    public static final MessageLimits DEFAULT = new MessageLimits(16 << 20, 32 << 20, 64 << 20, 16 << 20);
    /** The largest {@code max-message}: 1 GiB (a message is one Java array, and each its bytes twice in memory). */
    public static final int MAX_MESSAGE = 1 << 30;

    public MessageLimits {
        check(maxMessage >= 1 && maxMessage <= MAX_MESSAGE, "max-message", maxMessage,
                "must be in 1.." + MAX_MESSAGE + " bytes");
        check(sendQueueBytes >= maxMessage, "send-queue-bytes", sendQueueBytes,
                "must be at least max-message (" + maxMessage + "): the largest message must fit the queue");
        check(reassemblyBytes >= maxMessage, "reassembly-buffer", reassemblyBytes,
                "must be at least max-message (" + maxMessage + "): the largest message must fit it");
        check(fifoBytes >= 0, "fifo-buffer", fifoBytes, "must be 0 or more bytes");
    }

    /**
     * Bytes of messages being reassembled one sender may hold: half the buffer, or two whole messages if that is
     * more (one being repaired and the next behind it), never more than the buffer.
     */
    public long reassemblyBytesPerOrigin() {
        return Math.min(reassemblyBytes, Math.max(reassemblyBytes / 2, 2L * maxMessage));
    }

    private static void check(boolean ok, String key, int value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }
}
