package io.ricochet.pbcast;

import io.ricochet.wire.DataFlyweight;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable, validated settings of Bimodal Multicast (paper, sections 3.2 and 4). Build with {@link #builder()};
 * an out-of-range value is refused with a message naming the paper's parameter. With the three optimizations off
 * this is the basic protocol of Figure 4; see {@code docs/design/pbcast.md} for how they compose.
 *
 * @param roundNs         step-interval: gossip round duration (paper: 100 ms); each node's phase is random
 * @param fanout          sub-gsize: members of a group each member gossips to per round (paper's Figure 6: 1)
 * @param limitRequests   limit-requests: most solicitations a member sends per round
 * @param limitRetrans    limit-retrans: most retransmissions a member sends per round
 * @param stableThreshold stable-threshold: rounds a message is gossiped (in digests) after the round it arrived
 *                        in, before it is garbage collected, and rounds a missing message is sought after the round
 *                        it was discovered in, before it is reported lost (paper: 10)
 * @param ipmcThreshold   requests for one message after which it is retransmitted by multicast (paper: 2)
 * @param ipmc            Pbcast-ipmc (4.1): multicast a retransmission once its request counter reaches the threshold
 * @param grb             Pbcast-grb (4.2): gossip retransmit bits; multicast what this member and another retransmitted
 * @param local           Pbcast-local (4.3): info / mcast messages through a random neighbour
 * @param neighbourhood   who is a neighbour for Pbcast-local
 * @param maxPayload      largest application payload in bytes
 * @param bufferCapacity  messages the buffer holds at most; when full the oldest is evicted early
 * @param streamWindow    sequence numbers a stream may run ahead of its oldest undelivered message
 */
public record PbcastConfig(long roundNs, int fanout, int limitRequests, int limitRetrans, int stableThreshold,
                           int ipmcThreshold, boolean ipmc, boolean grb, boolean local, Neighbourhood neighbourhood,
                           int maxPayload, int bufferCapacity, int streamWindow) {

    private static final long MS = 1_000_000L;

    public PbcastConfig {
        Objects.requireNonNull(neighbourhood, "neighbourhood");
        require(roundNs >= MS / 1000 && roundNs <= 60_000 * MS, "step-interval", roundNs + " ns",
                "must be in 1 us..60 s");
        require(fanout >= 1 && fanout <= 64, "sub-gsize", fanout, "must be in 1..64");
        require(limitRequests >= 1, "limit-requests", limitRequests, "must be at least 1");
        require(limitRetrans >= 1, "limit-retrans", limitRetrans, "must be at least 1");
        require(stableThreshold >= 1 && stableThreshold <= 100_000, "stable-threshold", stableThreshold,
                "must be in 1..100000");
        require(ipmcThreshold >= 1, "ipmc-threshold", ipmcThreshold, "must be at least 1");
        require(maxPayload >= 1 && maxPayload <= DataFlyweight.STANDARD_MAX_PAYLOAD, "payload", maxPayload,
                "must be in 1.." + DataFlyweight.STANDARD_MAX_PAYLOAD + " so a data frame fits one datagram");
        require(bufferCapacity >= 1, "buffer-capacity", bufferCapacity, "must be at least 1");
        require(streamWindow >= 64, "stream-window", streamWindow, "must be at least 64");
    }

    private static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    /** The settings by their paper names, for result files. */
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("stepIntervalMs", roundNs / (double) MS);
        p.put("subGsize", fanout);
        p.put("limitRequests", limitRequests);
        p.put("limitRetrans", limitRetrans);
        p.put("stableThreshold", stableThreshold);
        p.put("ipmcThreshold", ipmcThreshold);
        p.put("ipmc", ipmc);
        p.put("grb", grb);
        p.put("local", local);
        p.put("neighbourhood", neighbourhood.toString());
        return p;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Defaults: the paper's round of 100 ms, stable-threshold 10 and ipmc threshold 2; sub-gsize 1 (Figure 6); no
     * optimization. The paper gives no values for the two per-round limits; 32 each covers a 1000-packet/s node
     * losing a few percent with room for bursts.
     */
    public static final class Builder {
        private long roundNs = 100 * MS;
        private int fanout = 1;
        private int limitRequests = 32;
        private int limitRetrans = 32;
        private int stableThreshold = 10;
        private int ipmcThreshold = 2;
        private boolean ipmc;
        private boolean grb;
        private boolean local;
        private Neighbourhood neighbourhood = Neighbourhood.flat();
        private int maxPayload = 1024;
        private int bufferCapacity = 8192;
        private int streamWindow = 16_384;

        public Builder roundNs(long v) {
            roundNs = v;
            return this;
        }

        public Builder fanout(int v) {
            fanout = v;
            return this;
        }

        public Builder limitRequests(int v) {
            limitRequests = v;
            return this;
        }

        public Builder limitRetrans(int v) {
            limitRetrans = v;
            return this;
        }

        public Builder stableThreshold(int v) {
            stableThreshold = v;
            return this;
        }

        public Builder ipmcThreshold(int v) {
            ipmcThreshold = v;
            return this;
        }

        public Builder ipmc(boolean v) {
            ipmc = v;
            return this;
        }

        public Builder grb(boolean v) {
            grb = v;
            return this;
        }

        public Builder local(boolean v) {
            local = v;
            return this;
        }

        public Builder neighbourhood(Neighbourhood v) {
            neighbourhood = v;
            return this;
        }

        public Builder maxPayload(int v) {
            maxPayload = v;
            return this;
        }

        public Builder bufferCapacity(int v) {
            bufferCapacity = v;
            return this;
        }

        public Builder streamWindow(int v) {
            streamWindow = v;
            return this;
        }

        public PbcastConfig build() {
            return new PbcastConfig(roundNs, fanout, limitRequests, limitRetrans, stableThreshold, ipmcThreshold,
                    ipmc, grb, local, neighbourhood, maxPayload, bufferCapacity, streamWindow);
        }
    }
}
