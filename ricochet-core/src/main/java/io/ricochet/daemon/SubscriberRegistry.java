package io.ricochet.daemon;

import io.ricochet.api.DeliveryListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The applications on this node subscribed to each group (API connections, in-process listeners), and the fan-out
 * of the engine's deliveries and loss reports to them. Owned by the engine's event loop.
 */
final class SubscriberRegistry implements MessageStreams.Subscribers {
    private final Map<Integer, List<DeliveryListener>> listeners = new HashMap<>();
    /** The listeners handed something since the last {@link #endOfBatch}, each once. */
    private final Set<DeliveryListener> handed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** The listener last added to {@link #handed}: a run of deliveries to one listener adds it once. */
    private DeliveryListener lastHanded;

    void add(int group, DeliveryListener listener) {
        listeners.computeIfAbsent(group, g -> new ArrayList<>()).add(listener);
    }

    /** Removes the listener; returns true if it was the group's last one. */
    boolean remove(int group, DeliveryListener listener) {
        List<DeliveryListener> list = listeners.get(group);
        if (list == null) {
            return false;
        }
        list.remove(listener);
        if (list.isEmpty()) {
            listeners.remove(group);
            return true;
        }
        return false;
    }

    /** Groups with at least one subscriber. */
    Set<Integer> groups() {
        return listeners.keySet();
    }

    /** Hands a delivered packet to every subscriber of its group; each copies what it keeps of the payload. */
    void delivered(int origin, int group, long seqno, byte[] payload, int offset, int length) {
        deliver(origin, group, seqno, payload, offset, length, MessageStreams.ALL);
    }

    /**
     * Hands a message to the group's subscribers of {@code audience}: all, those that take it unordered, or those
     * that take it in FIFO order ({@link DeliveryListener#fifo}).
     */
    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, int audience) {
        List<DeliveryListener> list = listeners.get(group);
        if (list == null) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            DeliveryListener listener = list.get(i);
            if (audience != MessageStreams.ALL && listener.fifo(group) != (audience == MessageStreams.FIFO)) {
                continue;
            }
            listener.delivered(origin, group, seqno, payload, offset, length);
            handed(listener);
        }
    }

    @Override
    public boolean hasFifo(int group) {
        List<DeliveryListener> list = listeners.get(group);
        if (list == null) {
            return false;
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).fifo(group)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Hands a packet this node sent to the group's subscribers that take local sends ({@code from}, the sending
     * listener, is asked as the sender); returns how many got it.
     */
    int deliveredLocal(int origin, int group, long seqno, byte[] payload, DeliveryListener from) {
        List<DeliveryListener> list = listeners.get(group);
        if (list == null) {
            return 0;
        }
        int count = 0;
        for (int i = 0; i < list.size(); i++) {
            DeliveryListener listener = list.get(i);
            if (listener.acceptsLocal(listener == from)) {
                listener.delivered(origin, group, seqno, payload, 0, payload.length);
                handed(listener);
                count++;
            }
        }
        return count;
    }

    /** Tells every subscriber of the group that a packet will never be delivered. */
    @Override
    public void lost(int origin, int group, long seqno) {
        List<DeliveryListener> list = listeners.get(group);
        if (list == null) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            DeliveryListener listener = list.get(i);
            listener.lost(origin, group, seqno);
            handed(listener);
        }
    }

    private void handed(DeliveryListener listener) {
        if (listener != lastHanded) {
            handed.add(listener);
            lastHanded = listener;
        }
    }

    /** The engine's batch is over: every listener handed something passes it on (one write per connection). */
    void endOfBatch() {
        if (handed.isEmpty()) {
            return;
        }
        for (DeliveryListener listener : handed) {
            listener.endOfBatch();
        }
        handed.clear();
        lastHanded = null;
    }
}
