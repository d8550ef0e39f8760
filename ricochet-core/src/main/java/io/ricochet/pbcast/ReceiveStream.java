package io.ricochet.pbcast;

import io.ricochet.engine.ReceiveWindow;

/**
 * Receive state of one (sender, group) stream: which seqnos are resolved (received, or given up as lost) and the
 * next seqno to deliver in FIFO order. Every seqno below {@code window.base()} is resolved; delivery follows the
 * base, so between inputs {@code nextDeliver == window.base()}.
 */
final class ReceiveStream {
    final int origin;
    final int group;
    final ReceiveWindow window;
    long nextDeliver;

    ReceiveStream(int origin, int group, long base, int maxWindow) {
        this.origin = origin;
        this.group = group;
        this.window = new ReceiveWindow(base, maxWindow);
        this.nextDeliver = base;
    }

    /** Highest seqno this stream may track now. */
    long lastInWindow(int maxWindow) {
        return window.base() + maxWindow - 1;
    }
}
