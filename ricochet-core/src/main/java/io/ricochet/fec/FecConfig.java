package io.ricochet.fec;

import io.ricochet.nak.NakSettings;
import io.ricochet.wire.DataFlyweight;
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
 * @param nakEnabled           whether the NAK layer runs behind FEC (NAK to the sender, retransmit or GONE)
 * @param nakTimeoutNs         with NAK on: delay from loss discovery to the first NAK
 * @param nakRetryNs           with NAK on: delay between NAKs for one packet
 * @param nakMaxAttempts       with NAK on: NAKs sent for one packet before it is reported lost
 * @param giveUpNs             with NAK off: delay from discovery after which a loss FEC did not repair is lost;
 *                             longer than the flush timeout, so that a flushed block's repairs arrive first
 * @param maxPayload           largest application payload in bytes
 * @param dataCacheCapacity    received payloads kept for decoding blocks (FIFO eviction)
 * @param retransmitCapacity   sent payloads kept to answer NAKs (FIFO eviction)
 * @param pendingBlockCapacity blocks whose repairs are held waiting for more packets (FIFO eviction)
 * @param maxPendingLosses     losses tracked at once; beyond it a new loss is given up at once
 * @param streamWindow         seqnos a stream may run ahead of its oldest unresolved packet
 */
public record FecConfig(int r, int c, long flushTimeoutNs, boolean nakEnabled, long nakTimeoutNs, long nakRetryNs,
                        int nakMaxAttempts, long giveUpNs, int maxPayload, int dataCacheCapacity,
                        int retransmitCapacity, int pendingBlockCapacity, int maxPendingLosses, int streamWindow) {

    private static final long MS = 1_000_000L;

    public FecConfig {
        require(r >= 1 && r <= FecRepairFlyweight.MAX_R, "r", r, "must be in 1.." + FecRepairFlyweight.MAX_R);
        require(c >= 1 && c <= FecRepairFlyweight.MAX_C, "c", c, "must be in 1.." + FecRepairFlyweight.MAX_C);
        require(flushTimeoutNs > 0, "flush-timeout", flushTimeoutNs, "must be positive");
        require(nakTimeoutNs > 0, "nak-timeout", nakTimeoutNs, "must be positive");
        require(nakRetryNs > 0, "nak-retry", nakRetryNs, "must be positive");
        require(nakMaxAttempts >= 1, "nak-max-attempts", nakMaxAttempts, "must be at least 1");
        require(giveUpNs > 0, "give-up", giveUpNs, "must be positive");
        require(nakEnabled || giveUpNs > flushTimeoutNs, "give-up", giveUpNs,
                "must exceed flush-timeout (" + flushTimeoutNs + ") with NAK off, or flushed repairs come too late");
        int maxFit = Math.min(DataFlyweight.STANDARD_MAX_PAYLOAD,
                HeaderFlyweight.STANDARD_FRAME_LENGTH - FecRepairFlyweight.frameLength(r, 0));
        require(maxPayload >= 1 && maxPayload <= maxFit, "payload", maxPayload,
                "must be in 1.." + maxFit + " so a repair of r=" + r + " fits one 1500-byte-MTU datagram");
        require(dataCacheCapacity >= r, "data-cache", dataCacheCapacity, "must hold at least one block (r)");
        require(retransmitCapacity >= 1, "retransmit-buffer", retransmitCapacity, "must be at least 1");
        require(pendingBlockCapacity >= 1, "pending-blocks", pendingBlockCapacity, "must be at least 1");
        require(maxPendingLosses >= 1, "max-pending-losses", maxPendingLosses, "must be at least 1");
        require(streamWindow >= 64, "stream-window", streamWindow, "must be at least 64");
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    /** The NAK layer's receiver-side settings (sender-based FEC sets no NAK rate limit). */
    public NakSettings nakSettings() {
        return new NakSettings(nakEnabled, nakTimeoutNs, nakRetryNs, nakMaxAttempts, giveUpNs, maxPendingLosses, 0);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Defaults: (r, c) = (8, 5) as in the Ricochet paper's comparison, a 50 ms flush, and a NAK layer timed like
     * Ricochet's (first NAK 100 ms after discovery, then every 50 ms, 10 at most).
     */
    public static final class Builder {
        private int r = 8;
        private int c = 5;
        private long flushTimeoutNs = 50 * MS;
        private boolean nakEnabled = true;
        private long nakTimeoutNs = 100 * MS;
        private long nakRetryNs = 50 * MS;
        private int nakMaxAttempts = 10;
        private long giveUpNs = 500 * MS;
        private int maxPayload = 1024;
        private int dataCacheCapacity = 4096;
        private int retransmitCapacity = 8192;
        private int pendingBlockCapacity = 512;
        private int maxPendingLosses = 65_536;
        private int streamWindow = 16_384;

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

        public Builder nakEnabled(boolean v) {
            nakEnabled = v;
            return this;
        }

        public Builder nakTimeoutNs(long v) {
            nakTimeoutNs = v;
            return this;
        }

        public Builder nakRetryNs(long v) {
            nakRetryNs = v;
            return this;
        }

        public Builder nakMaxAttempts(int v) {
            nakMaxAttempts = v;
            return this;
        }

        public Builder giveUpNs(long v) {
            giveUpNs = v;
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

        public Builder maxPendingLosses(int v) {
            maxPendingLosses = v;
            return this;
        }

        public Builder streamWindow(int v) {
            streamWindow = v;
            return this;
        }

        public FecConfig build() {
            return new FecConfig(r, c, flushTimeoutNs, nakEnabled, nakTimeoutNs, nakRetryNs, nakMaxAttempts,
                    giveUpNs, maxPayload, dataCacheCapacity, retransmitCapacity, pendingBlockCapacity,
                    maxPendingLosses, streamWindow);
        }
    }
}
