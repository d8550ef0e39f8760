package io.ricochet.engine;

/** The unique id of a data packet: (original sender, group, sequence number), as in the paper's Figure 3. */
public record PacketId(int origin, int group, long seqno) {
    @Override
    public String toString() {
        return "(" + origin + "," + group + "," + seqno + ")";
    }
}
