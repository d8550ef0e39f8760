package io.ricochet.fountain.layered;

/**
 * One packet of the layered stream, as its header would carry it.
 *
 * @param layer  the layer (multicast group) it is sent on
 * @param seqno  its number on that layer, from 0: a gap is a loss
 * @param sendNs when the sender sends it
 * @param sp     the number of SPs sent before it; the first packet a receiver gets with a higher number than the
 *               last marks the SP it has just passed (so losing the packet right after an SP does not hide it)
 * @param burst  whether it is sent in a burst (at twice the layer's rate)
 * @param symbol the fountain's encoding-symbol id it carries: one count over every layer, so no two packets carry
 *               the same symbol (LT symbols are made on the fly: any of them serve, whichever layer brought them)
 */
public record LayeredPacket(int layer, long seqno, long sendNs, long sp, boolean burst, long symbol) {
}
