package io.ricochet.api.server;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The quotas of {@link ApiAccess} kept per {@link Principal}: connections open, group memberships held over all
 * its connections, and a token bucket of sends. A principal's entry exists while it has a connection open, so the
 * table holds at most one entry per open connection. Used from the API's I/O threads and the engine's, so every
 * method is synchronized; the send bucket is only consulted when a rate is set.
 */
final class PrincipalQuotas {
    private final ApiAccess access;
    private final LongSupplier nanoClock;
    private final Map<Principal, Entry> entries = new HashMap<>();

    private static final class Entry {
        int connections;
        int groups;
        double tokens;
        long refilledAt;
    }

    /** @param nanoClock the clock of the send bucket, {@link System#nanoTime()} but in tests */
    PrincipalQuotas(ApiAccess access, LongSupplier nanoClock) {
        this.access = access;
        this.nanoClock = nanoClock;
    }

    /** Opens a connection of {@code principal} unless it has its maximum open already; whether it did. */
    synchronized boolean openConnection(Principal principal) {
        Entry entry = entries.get(principal);
        if (entry == null) {
            entry = new Entry();
            entry.tokens = access.maxSendsPerSecondPerPrincipal();
            entry.refilledAt = nanoClock.getAsLong();
            entries.put(principal, entry);
        }
        if (entry.connections >= access.maxConnectionsPerPrincipal()) {
            return false;
        }
        entry.connections++;
        return true;
    }

    /** Closes a connection {@link #openConnection opened}, whose groups were {@link #leaveGroup left} before. */
    synchronized void closeConnection(Principal principal) {
        Entry entry = entries.get(principal);
        if (entry != null && --entry.connections <= 0) {
            entries.remove(principal);
        }
    }

    /** Counts one more group membership of {@code principal} unless it holds its maximum; whether it did. */
    synchronized boolean joinGroup(Principal principal) {
        Entry entry = entries.get(principal);
        if (entry == null || entry.groups >= access.maxGroupsPerPrincipal()) {
            return false;
        }
        entry.groups++;
        return true;
    }

    /** Counts one group membership of {@code principal} fewer. */
    synchronized void leaveGroup(Principal principal) {
        Entry entry = entries.get(principal);
        if (entry != null && entry.groups > 0) {
            entry.groups--;
        }
    }

    /** Takes a send token of {@code principal}, always granted when no rate is set; whether it got one. */
    boolean trySend(Principal principal) {
        int rate = access.maxSendsPerSecondPerPrincipal();
        return rate == 0 || takeToken(principal, rate);
    }

    private synchronized boolean takeToken(Principal principal, int rate) {
        Entry entry = entries.get(principal);
        if (entry == null) {
            return false;
        }
        long now = nanoClock.getAsLong();
        // The bucket holds one second's worth of sends: a burst of up to `rate`, then `rate` per second.
        entry.tokens = Math.min(rate, entry.tokens + (now - entry.refilledAt) * 1e-9 * rate);
        entry.refilledAt = now;
        if (entry.tokens < 1) {
            return false;
        }
        entry.tokens--;
        return true;
    }

    /** Principals with a connection open now. */
    synchronized int principals() {
        return entries.size();
    }

    /** Group memberships {@code principal} holds now. */
    synchronized int groups(Principal principal) {
        Entry entry = entries.get(principal);
        return entry == null ? 0 : entry.groups;
    }
}
