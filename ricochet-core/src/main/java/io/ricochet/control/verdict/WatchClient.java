package io.ricochet.control.verdict;

import io.netty.channel.EventLoopGroup;
import io.ricochet.control.link.ControlLink;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.ErrorCode;
import io.ricochet.control.message.ErrorReply;
import io.ricochet.control.message.MessageType;
import io.ricochet.control.message.Watch;
import io.ricochet.control.message.WatchList;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failure detector's session with GMS partition 0 for the list of daemons it is to watch
 * ({@code docs/design/membership.md}). It keeps one reconnecting {@link ControlLink} to the partition's leader among
 * its replicas (redirects followed, 100 ms backoff doubling to 5 s, TLS as given) and sends
 * {@link Watch Watch(detectorId, rack)} first on every session with a leader: a new leader after a failover, or the
 * same one after a lost connection, hears it again (the GMS takes a repeat as a refresh). Every {@link WatchList} the
 * GMS answers or pushes goes to the {@link Listener}; it replaces the previous one. An ERROR from the GMS (a
 * certificate that is not a detector's, say) is logged at ERROR and told to the listener.
 *
 * <p>While the partition is down the listener hears nothing: the detector keeps watching the last list it was
 * given, and the next session's answer replaces it.
 *
 * <p>Threading: the listener is called on one event loop thread of the group (the link's), one call at a time, in
 * the order the lists arrive. It must not block; it should hand the list to its own thread. A listener that throws
 * is logged and ignored. Connecting starts in the constructor; no method blocks except {@link #close}.
 */
public final class WatchClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WatchClient.class);

    /** What the client hears from the GMS; called on the link's event loop. */
    @FunctionalInterface
    public interface Listener {
        /** The daemons to watch from now on, replacing the previous list. */
        void onWatchList(WatchList list);

        /** The GMS refused something with an ERROR ({@link ErrorCode}), or a replica serves another partition. */
        default void onError(int code, String message) {
        }
    }

    private final Watch watch;
    private final Listener listener;
    private final ControlLink link;
    private volatile long lists;

    /**
     * Watches as detector {@code detectorId}: the daemons of rack {@code rack} (1..65535), or, with
     * {@link Watch#STANDBY}, only the racks of failed rack detectors that the GMS moves to it.
     *
     * @param detectorId this detector's {@code --id}; with TLS its certificate's CN
     * @param rack       its rack, or {@link Watch#STANDBY}
     * @param partitions every GMS partition in partition order, each its replicas (see {@link GmsAddresses});
     *                   only partition 0's are used, the count is checked against the replicas' SERVING
     * @param group      the event loops (one is taken); the caller owns and shuts it down after {@link #close}
     * @param tls        the mutual TLS of the session (a detector's certificate), or plaintext when insecure
     * @param listener   hears every list, on the link's event loop
     */
    public WatchClient(String detectorId, int rack, List<List<InetSocketAddress>> partitions, EventLoopGroup group,
                       TlsSettings tls, Listener listener) {
        this.watch = new Watch(detectorId, rack);
        this.listener = Objects.requireNonNull(listener, "listener");
        List<List<InetSocketAddress>> replicas = GmsAddresses.requireValid(partitions);
        this.link = new ControlLink("partition 0 (watch list)", 0, replicas.size(), replicas.get(0),
                Objects.requireNonNull(group, "group"), Objects.requireNonNull(tls, "tls"));
        link.start(new Session());
    }

    /** What this client sends first on every session. */
    public Watch watch() {
        return watch;
    }

    /** Watch lists received so far, over every session; from any thread. */
    public long listsReceived() {
        return lists;
    }

    /** Stops reconnecting and closes the session; waits for that unless called on the link's event loop. */
    @Override
    public void close() {
        link.close();
    }

    /** The link's handler: all on the link's event loop. */
    private final class Session implements ControlLink.Handler {
        @Override
        public void onUp() {
            link.send(watch);
        }

        @Override
        public void onMessage(ControlMessage message) {
            if (message instanceof WatchList list) {
                lists++;
                safely(() -> listener.onWatchList(list));
            } else if (message instanceof ErrorReply error) {
                LOG.error("{}: GMS error {} to detector {} watching {}: {}", link.name(),
                        ErrorCode.name(error.code()), watch.detectorId(),
                        watch.rack() == Watch.STANDBY ? "as a standby" : "rack " + watch.rack(), error.message());
                safely(() -> listener.onError(error.code(), error.message()));
            } else {
                LOG.warn("{}: ignoring unexpected {} from the GMS", link.name(), MessageType.name(message.type()));
            }
        }

        @Override
        public void onDown() {
            LOG.info("{}: keeping the last watch list until the partition is back", link.name());
        }

        @Override
        public void onMisconfigured(String problem) {
            safely(() -> listener.onError(ErrorCode.WRONG_PARTITION, problem));
        }

        private void safely(Runnable callback) {
            link.callSafely("watch list listener", callback);
        }
    }
}
