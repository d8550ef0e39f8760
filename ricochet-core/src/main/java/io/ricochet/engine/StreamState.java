package io.ricochet.engine;

/** Receive state of one (sender, group) stream at this node. */
final class StreamState {
    final int origin;
    final int group;
    final ReceiveWindow window;
    /** The sender left or failed the group; a later JOIN starts a new stream from seqno 0. */
    boolean departed;

    StreamState(int origin, int group, long base, int maxWindow) {
        this.origin = origin;
        this.group = group;
        this.window = new ReceiveWindow(base, maxWindow);
    }

    static long key(int origin, int group) {
        return ((long) origin << 32) | (group & 0xFFFFFFFFL);
    }
}
