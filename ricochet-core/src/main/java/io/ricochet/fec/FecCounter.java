package io.ricochet.fec;

import io.ricochet.engine.Counter;
import io.ricochet.engine.CounterRole;

/** Sender-based FEC's counters: repair symbols sent and received, blocks encoded and decoded. */
public enum FecCounter implements Counter {
    FEC_REPAIRS_SENT(120, "sender-based FEC repairs multicast (c per block)"),
    FEC_REPAIRS_RECEIVED(121, "sender-based FEC repairs received"),
    FEC_RECOVERED(122, "lost packets rebuilt from sender-based FEC repairs"),
    FEC_BLOCKS_SENT(123, "FEC blocks a sender closed and sent repairs for (full or flushed)"),
    FEC_BLOCKS_FLUSHED(124, "of FEC_BLOCKS_SENT, partial blocks closed by the flush timeout"),
    FEC_BLOCKS_DECODED(125, "FEC blocks from which at least one missing packet was rebuilt"),
    FEC_BLOCKS_UNRECOVERABLE(126, "FEC blocks whose last repair arrived with more packets missing than repairs held"),
    FEC_BLOCK_EVICTIONS(127, "FEC blocks waiting for packets evicted, with their repairs, to stay within the bound"),
    FEC_ENCODE_MULADDS(128, "GF(256) payload multiply-adds done to build FEC repairs (c per data packet sent)"),
    FEC_DECODE_MULADDS(129, "GF(256) payload multiply-adds done to decode FEC blocks (e k for e erasures)");

    private final int id;
    private final String description;

    FecCounter(int id, String description) {
        this.id = id;
        this.description = description;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public CounterRole role() {
        return switch (this) {
            case FEC_REPAIRS_SENT -> CounterRole.REPAIRS_SENT;
            case FEC_REPAIRS_RECEIVED -> CounterRole.REPAIRS_RECEIVED;
            case FEC_RECOVERED -> CounterRole.RECOVERED_BY_REPAIR;
            default -> CounterRole.NONE;
        };
    }
}
