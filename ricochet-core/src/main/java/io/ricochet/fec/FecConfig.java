package io.ricochet.fec;

import io.ricochet.nak.NakSettings;
import io.ricochet.wire.DataFlyweight;
import java.util.Objects;
import io.ricochet.wire.HeaderFlyweight;

/**
 * Immutable, validated settings of sender-based FEC ({@link FecEngine}). Build it with {@link #builder()}; an
 * out-of-range value is refused with a message naming the setting.
 *
 * @param r                    rate-of-fire r: data packets per block (per sender and group)
 * @param c                    rate-of-fire c: repairs multicast per block; 1 is plain XOR parity, more is
 *                             Reed-Solomon
 * @param flushTimeoutNs       a block still open this long after its first packet is closed early: its c repairs
 *                             are sent over the packets it has, so the tail of a burst is protected too
 * @param nakSettings          the NAK layer behind FEC (NAK to the sender, retransmit or GONE): whether it runs, its
 *                             timers, the losses tracked at once, and with NAK off the delay from discovery after
 *                             which a loss FEC did not repair is lost, longer than the flush timeout so that a
 *                             flushed block's repairs arrive first; sender-based FEC sets no NAK rate limit
 * @param maxPayload           largest application payload in bytes
 * @param dataCacheCapacity    received payloads kept for decoding blocks (FIFO eviction)
 * @param retransmitCapacity   sent payloads kept to answer NAKs (FIFO eviction)
 * @param pendingBlockCapacity blocks whose repairs are held waiting for more packets (FIFO eviction)
 * @param streamWindow         seqnos a stream may run ahead of its oldest unresolved packet
 */
public record FecConfig(int r, int c, long flushTimeoutNs, NakSettings nakSettings, int maxPayload,
                        int dataCacheCapacity, int retransmitCapacity, int pendingBlockCapacity, int streamWindow) {

    private static final long MS = 1_000_000L;

    public FecConfig {
        require(r >= 1 && r <= FecRepairFlyweight.MAX_R, "r", r, "must be in 1.." + FecRepairFlyweight.MAX_R);
        require(c >= 1 && c <= FecRepairFlyweight.MAX_C, "c", c, "must be in 1.." + FecRepairFlyweight.MAX_C);
        require(flushTimeoutNs > 0, "flush-timeout", flushTimeoutNs, "must be positive");
        Objects.requireNonNull(nakSettings, "nakSettings");
        require(nakSettings.nakEnabled() || nakSettings.giveUpNs() > flushTimeoutNs, "give-up", nakSettings.giveUpNs(),
                "must exceed flush-timeout (" + flushTimeoutNs + ") with NAK off, or flushed repairs come too late");
        int maxFit = Math.min(DataFlyweight.STANDARD_MAX_PAYLOAD,
                HeaderFlyweight.STANDARD_FRAME_LENGTH - FecRepairFlyweight.frameLength(r, 0));
        require(maxPayload >= 1 && maxPayload <= maxFit, "payload", maxPayload,
                "must be in 1.." + maxFit + " so a repair of r=" + r + " fits one 1500-byte-MTU datagram");
        require(dataCacheCapacity >= r, "data-cache", dataCacheCapacity, "must hold at least one block (r)");
        require(retransmitCapacity >= 1, "retransmit-buffer", retransmitCapacity, "must be at least 1");
        require(pendingBlockCapacity >= 1, "pending-blocks", pendingBlockCapacity, "must be at least 1");
        require(streamWindow >= 64, "stream-window", streamWindow, "must be at least 64");
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Defaults: (r, c) = (8, 5) as in the Ricochet paper's comparison, a 50 ms flush, and a NAK layer timed as
     * {@link NakSettings} declares (first NAK 100 ms after discovery, then every 50 ms, 10 at most).
     */
    public static final class Builder extends NakSettings.Builder<Builder> {
        private int r = 8;
        private int c = 5;
        private long flushTimeoutNs = 50 * MS;
        private int maxPayload = 1024;
        private int dataCacheCapacity = 4096;
        private int retransmitCapacity = 8192;
        private int pendingBlockCapacity = 512;
        private int streamWindow = 16_384;

        /** With NAK off a loss is given up after 500 ms; sender-based FEC sets no NAK rate limit. */
        private Builder() {
            super(500 * MS, 0);
        }

        @Override
        protected Builder self() {
            return this;
        }

        public Builder r(int v) {
            r = v;
            return this;
        }

        public Builder c(int v) {
            c = v;
            return this;
        }

        public Builder flushTimeoutNs(long v) {
            flushTimeoutNs = v;
            return this;
        }






        public Builder maxPayload(int v) {
            maxPayload = v;
            return this;
        }

        public Builder dataCacheCapacity(int v) {
            dataCacheCapacity = v;
            return this;
        }

        public Builder retransmitCapacity(int v) {
            retransmitCapacity = v;
            return this;
        }

        public Builder pendingBlockCapacity(int v) {
            pendingBlockCapacity = v;
            return this;
        }


        public Builder streamWindow(int v) {
            streamWindow = v;
            return this;
        }

        public FecConfig build() {
            return new FecConfig(r, c, flushTimeoutNs, nakSettings(), maxPayload, dataCacheCapacity, retransmitCapacity,
                    pendingBlockCapacity, streamWindow);
        }
    }
}
