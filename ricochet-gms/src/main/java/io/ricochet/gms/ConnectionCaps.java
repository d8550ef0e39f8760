package io.ricochet.gms;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * The connections one listening socket holds, in all and per peer address, against the caps of
 * {@link FrontDoorSettings}: {@link #admit} says whether a new one may stay, {@link #release} gives its place back
 * when it closes. A peer on the GMS's own host (its address is the one it connected to) counts towards the total
 * only: every process of the host shares that address. Used on the replica's one event loop thread.
 */
final class ConnectionCaps {
    /** What {@link #admit} decided. */
    enum Verdict {
        ADMITTED,
        /** The socket holds {@code maxTotal} connections already. */
        OVER_TOTAL,
        /** The socket holds {@code maxPerAddress} connections from the peer's address already. */
        OVER_PER_ADDRESS
    }

    private final int maxTotal;
    private final int maxPerAddress;
    private final Map<InetAddress, Integer> perAddress = new HashMap<>();
    private int total;

    ConnectionCaps(int maxTotal, int maxPerAddress) {
        this.maxTotal = maxTotal;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * Takes a place for a connection from {@code peer} (on the GMS's own host if {@code local}) if the caps leave
     * one; each admitted connection must be {@link #release}d once, with the same arguments.
     */
    Verdict admit(InetAddress peer, boolean local) {
        if (total >= maxTotal) {
            return Verdict.OVER_TOTAL;
        }
        if (!local) {
            int held = perAddress.getOrDefault(peer, 0);
            if (held >= maxPerAddress) {
                return Verdict.OVER_PER_ADDRESS;
            }
            perAddress.put(peer, held + 1);
        }
        total++;
        return Verdict.ADMITTED;
    }

    /** Gives back the place of a connection {@link #admit} admitted. */
    void release(InetAddress peer, boolean local) {
        total--;
        if (!local) {
            perAddress.computeIfPresent(peer, (address, held) -> held > 1 ? held - 1 : null);
        }
    }

    /** Connections held. */
    int total() {
        return total;
    }

    /** Connections held from {@code peer} (not counting a peer on the GMS's own host). */
    int from(InetAddress peer) {
        return perAddress.getOrDefault(peer, 0);
    }
}
