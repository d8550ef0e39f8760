package io.ricochet.fountain.layered;

/**
 * The sender: the packets of every layer in the order of their send times ({@link LayerSchedule#sendNs}); ties go
 * to the lower layer. It needs no feedback: it sends the same whatever its receivers do (paper, section VII-A:
 * "the sender behaves the same whether there are a handful or a million receivers").
 */
public final class LayeredSender {
    private final LayerSchedule schedule;
    private final long[] seqno;
    private final long[] nextNs;
    private long symbols;

    public LayeredSender(LayerSchedule schedule) {
        this.schedule = schedule;
        this.seqno = new long[schedule.layers()];
        this.nextNs = new long[schedule.layers()];
        for (int layer = 0; layer < nextNs.length; layer++) {
            nextNs[layer] = schedule.sendNs(layer, 0);
        }
    }

    /** The schedule it follows. */
    public LayerSchedule schedule() {
        return schedule;
    }

    /** When the next packet is sent. */
    public long peekNs() {
        return nextNs[nextLayer()];
    }

    /** The next packet, in send order. */
    public LayeredPacket next() {
        int layer = nextLayer();
        long n = seqno[layer]++;
        long sendNs = nextNs[layer];
        nextNs[layer] = schedule.sendNs(layer, n + 1);
        return new LayeredPacket(layer, n, sendNs, schedule.spsBefore(sendNs), schedule.inBurst(layer, n),
                symbols++);
    }

    private int nextLayer() {
        int best = 0;
        for (int layer = 1; layer < nextNs.length; layer++) {
            if (nextNs[layer] < nextNs[best]) {
                best = layer;
            }
        }
        return best;
    }
}
