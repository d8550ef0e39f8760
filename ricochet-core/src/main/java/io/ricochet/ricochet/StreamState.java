package io.ricochet.ricochet;

import io.ricochet.engine.ReceiveWindow;

/** Receive state of one (sender, group) stream at this node. */
final class StreamState {
    final int origin;
    final int group;
    /** The sender's incarnation this stream belongs to; a JOIN with another one starts a new stream. */
    final long incarnation;
    final ReceiveWindow window;

    StreamState(int origin, int group, long incarnation, long base, int maxWindow) {
        this.origin = origin;
        this.group = group;
        this.incarnation = incarnation;
        this.window = new ReceiveWindow(base, maxWindow);
    }

    static long key(int origin, int group) {
        return ((long) origin << 32) | (group & 0xFFFFFFFFL);
    }
}
