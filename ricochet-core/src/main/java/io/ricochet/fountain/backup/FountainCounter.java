package io.ricochet.fountain.backup;

import io.ricochet.engine.Counter;

/**
 * The fountain backup's counters (docs/design/fountain.md, section 6): a Ricochet engine has them only when the
 * backup is on, so runs without it keep their counter columns.
 */
public enum FountainCounter implements Counter {
    FOUNTAIN_RANGES_SENT(170, "runs of NAKed packets longer than LEC repairs answered with fountain symbols"),
    FOUNTAIN_SYMBOLS_SENT(171, "fountain symbols multicast (LT-coded over a NAKed range of this node's packets)"),
    FOUNTAIN_NAKS_ABSORBED(172, "NAKs for a packet of a range being answered with fountain symbols (no "
            + "retransmission)"),
    FOUNTAIN_RANGES_CUT(173, "fountain ranges cut short because a packet of them had left the retransmit buffer"),
    FOUNTAIN_SYMBOLS_RECEIVED(174, "fountain symbols received"),
    FOUNTAIN_SYMBOLS_USELESS(175, "fountain symbols of a range this node misses nothing of (dropped unread)"),
    FOUNTAIN_SYMBOLS_REFUSED(176, "fountain symbols refused: a range over the bound, lengths that differ from the "
            + "range's first symbol, or a decoder's pool full"),
    FOUNTAIN_RANGES_DECODED(177, "fountain ranges decoded whole"),
    FOUNTAIN_RANGES_EVICTED(178, "ranges being decoded dropped to make room for a newer one (bounded decoders)"),
    FOUNTAIN_RECOVERED(179, "lost packets recovered by decoding fountain symbols"),
    FOUNTAIN_RANGES_ANSWERED_AS_NAKS(180, "ranges not coded: their NAKs were answered one by one, which cost fewer "
            + "packets than the symbols would (one receiver's run, or a short one)");

    private final int id;
    private final String description;

    FountainCounter(int id, String description) {
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
}
