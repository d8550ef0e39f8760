package io.ricochet.cli;

import io.ricochet.api.ApiException;
import io.ricochet.api.NodeStats;
import io.ricochet.client.ApiAddress;
import io.ricochet.client.ApiConnectionException;
import io.ricochet.client.ClientOptions;
import io.ricochet.client.RicochetClient;
import java.util.function.LongSupplier;

/**
 * One daemon watched by {@code ricochet top} or {@code ricochet stats --watch}: one API connection, opened on the
 * first poll and again on the poll after it broke, so a restarted daemon is found again. Never throws for a daemon
 * that is away: the sample says why.
 */
final class StatsSource implements AutoCloseable {
    private final ApiAddress address;
    private final ClientOptions options;
    private final LongSupplier nanoClock;
    private RicochetClient client;

    /**
     * One reading of a daemon.
     *
     * @param address where it was asked
     * @param stats   what it answered, or null if it did not
     * @param error   why it did not answer, or null
     * @param atNs    when, on the poller's monotonic clock
     */
    record Sample(ApiAddress address, NodeStats stats, String error, long atNs) {
        boolean ok() {
            return stats != null;
        }
    }

    StatsSource(ApiAddress address, ClientOptions options, LongSupplier nanoClock) {
        this.address = address;
        this.options = options;
        this.nanoClock = nanoClock;
    }

    ApiAddress address() {
        return address;
    }

    /** The daemon's stats now, or why they could not be had. */
    Sample poll() {
        try {
            if (client == null || !client.isOpen()) {
                closeClient();
                client = address.connect(options);
            }
            NodeStats stats = client.stats();
            return new Sample(address, stats, null, nanoClock.getAsLong());
        } catch (ApiConnectionException e) {
            closeClient();
            return new Sample(address, null, e.getMessage(), nanoClock.getAsLong());
        } catch (ApiException e) {
            return new Sample(address, null, e.getMessage() + " (" + e.code() + ")", nanoClock.getAsLong());
        }
    }

    private void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    @Override
    public void close() {
        closeClient();
    }
}
