package io.ricochet.daemon;

import io.ricochet.api.ApiException;
import io.ricochet.api.DeliveryListener;
import io.ricochet.api.MessageId;
import io.ricochet.auth.FrameGuard;
import io.ricochet.engine.Counters;
import io.ricochet.engine.Delivery;
import io.ricochet.engine.MembershipEvent;
import io.ricochet.engine.Outbox;
import io.ricochet.engine.PacketId;
import io.ricochet.engine.ProtocolEngine;
import io.ricochet.latency.RecoveryLatencies;
import io.ricochet.loss.LossInjector;
import io.ricochet.membership.ViewReconciler;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The daemon's driver of the protocol engine, and its {@link Outbox}. Everything here runs on the one event-loop
 * thread that owns the engine: received datagrams come in batches, a {@link ReceiveBuffer} filled by a
 * {@link Landing} (loss injected as the batch is processed); the sends the engine makes are flushed once per batch;
 * exactly one timer is scheduled, at the engine's next deadline. The clock is read once per batch, per timer and
 * per application call, and passed down. Application messages go out packed into datagrams by the {@link Bundler},
 * and the datagrams the engine delivers are unpacked here ({@link BundleFormat}): subscribers see messages, by
 * message id ({@link MessageId}).
 */
final class EngineDriver implements Outbox, Bundler.Engine, Landing.Engine {
    /** Drop and discovery times kept for recovery latencies. */
    private static final int TRACKED_LOSSES = 65_536;
    /** The highest datagram seqno whose messages have ids. */
    private static final long MAX_DATAGRAM = Long.MAX_VALUE / MessageId.PER_DATAGRAM;

    private final int self;
    private final ScheduledExecutorService loop;
    private final LongSupplier clock;
    private final LossInjector injector;
    private final Counters counters;
    private final RecoveryLatencies latencies = new RecoveryLatencies(TRACKED_LOSSES, true);
    private final SubscriberRegistry subscribers = new SubscriberRegistry();
    private Consumer<PacketId> dropObserver = id -> { };
    private MessageStreams messages;
    /** Whether a sweep of the message streams is scheduled. */
    private boolean sweepPending;
    /** Sweeps go on until then after a membership change. */
    private long sweepUntilNs;
    private static final long SWEEP_AFTER_CHANGES_NS = 20_000_000_000L;
    /** A fragment being sent: its header and piece (the engine copies it). */
    private byte[] fragment = new byte[0];
    private ProtocolEngine engine;
    private Bundler bundler;
    private DaemonSockets transport;
    private ViewReconciler views;
    private ScheduledFuture<?> wake;
    private long wakeNs = Long.MAX_VALUE;
    private long nowNs;
    /** Where a batch's datagrams go (one instance: nothing allocated per batch). */
    private final ReceiveBuffer.Sink toEngine = this::toEngine;
    private Runnable afterReceive = () -> { };
    /** Runs a task once the loop has run the tasks it is running now (the end of its batch). */
    private Executor afterBatch;
    /** Whether application sends of this batch still wait for {@link #flushSends}. */
    private boolean sendsFlushPending;
    private final Runnable flushSends = this::flushSends;

    /**
     * @param self     this node's id
     * @param loop     the engine's event loop, where the one timer is scheduled
     * @param clock    the time source, in nanoseconds
     * @param injector loss injected as a batch is processed, before the engine
     * @param counters the daemon's own counters ({@link DaemonCounter})
     */
    EngineDriver(int self, ScheduledExecutorService loop, LongSupplier clock, LossInjector injector,
                 Counters counters) {
        this.self = self;
        this.loop = loop;
        this.clock = clock;
        this.injector = injector;
        this.counters = counters;
    }

    /** Attaches the engine and the sockets, without bundling: every message is a datagram of its own. */
    void attach(ProtocolEngine engine, DaemonSockets transport) {
        attach(engine, transport, 0, 0, loop::execute);
    }

    /**
     * Attaches the engine and the sockets.
     *
     * @param bundleBytes the largest payload a datagram of several messages fills (0 = no bundling)
     * @param lingerNs    how long a datagram waits for more messages (0 = until the end of the loop's batch)
     * @param afterBatch  runs a task once the loop has run the tasks it is running now
     */
    void attach(ProtocolEngine engine, DaemonSockets transport, int bundleBytes, long lingerNs, Executor afterBatch) {
        attach(engine, transport, bundleBytes, lingerNs, afterBatch, MessageLimits.DEFAULT, 0);
    }

    /**
     * Attaches the engine and the sockets, with the limits of large messages and FIFO deliveries.
     *
     * @param maxPayload the engine's largest datagram payload (0: the largest a frame carries)
     */
    void attach(ProtocolEngine engine, DaemonSockets transport, int bundleBytes, long lingerNs, Executor afterBatch,
                MessageLimits limits, int maxPayload) {
        int payload = maxPayload > 0 ? maxPayload : io.ricochet.wire.DataFlyweight.MAX_PAYLOAD;
        this.fragment = new byte[payload];
        this.messages = new MessageStreams(subscribers, MessageStreams.EngineStreams.of(engine), counters, clock,
                limits.maxMessage(), payload, limits.reassemblyBytes(), limits.reassemblyBytesPerOrigin(),
                limits.fifoBytes());
        this.engine = engine;
        this.transport = transport;
        this.views = new ViewReconciler(self, transport, event -> engine.onMembership(event, nowNs));
        this.bundler = new Bundler(bundleBytes, lingerNs, this, afterBatch, loop, counters);
        this.afterBatch = afterBatch;
    }

    ProtocolEngine engine() {
        return engine;
    }

    /** The receiving side of application messages: reassembly and FIFO order. */
    MessageStreams messages() {
        return messages;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    RecoveryLatencies latencies() {
        return latencies;
    }

    /** Tells {@code observer} the id of every data packet the loss injector drops from now on (on this thread). */
    void observeInjectedDrops(Consumer<PacketId> observer) {
        this.dropObserver = observer;
    }

    ViewReconciler views() {
        return views;
    }

    // ------------------------------------------------------------------ receive path

    /**
     * Feeds a batch of received datagrams to the engine at one reading of the clock, in the buffer's order
     * (control, data, then repairs), then flushes and re-arms the timer. Loss is injected here, before the engine
     * sees a datagram: a dropped data packet is counted and its drop time kept for recovery latencies.
     */
    @Override
    public void process(ReceiveBuffer batch) {
        nowNs = clock.getAsLong();
        int n = batch.drain(toEngine);
        if (n > 0) {
            counters.increment(DaemonCounter.RX_BATCHES);
            counters.max(DaemonCounter.RX_BATCH_PEAK, n);
        }
        afterEngineCall();
        afterReceive.run();
    }

    /** One datagram of a batch, lent for the call: the engine may keep it (a data packet's cached copy). */
    private byte[] toEngine(byte[] frame, int length) {
        if (injector.drop(frame, 0, nowNs)) {
            counters.increment(DaemonCounter.INJECTED_DROPS);
            PacketId id = injector.droppedData(frame, 0, length);
            if (id != null) {
                latencies.dropped(self, id, nowNs);
                dropObserver.accept(id);
            }
            return frame;
        }
        return engine.onLentPacket(frame, length, nowNs);
    }

    /**
     * Runs {@code task} after each batch of received datagrams (a STABLE report may have made room for sends that
     * wait for the engine).
     */
    void afterReceive(Runnable task) {
        this.afterReceive = task;
    }

    // ------------------------------------------------------------------ application sends

    /** Whether an application's message of {@code size} bytes to {@code group} joins the datagram being filled. */
    boolean joinsOpenDatagram(int group, int size) {
        return bundler.joins(group, size);
    }

    /**
     * The earliest time at or after {@code nowNs} when the engine can take a new datagram of application messages to
     * {@code group}.
     * The datagram being filled, which the engine was ready for when it was begun, goes to the engine first, so
     * the answer counts it.
     */
    long newDatagramReadyAtNs(int group, long nowNs) {
        if (bundler.isOpen()) {
            bundler.send();
            endOfSendsLater();
        }
        return engine.sendReadyAtNs(group, nowNs);
    }

    /** Sends the datagram being filled, if any: before anything that changes what the engine sends next. */
    void sendOpenDatagram() {
        if (bundler.isOpen()) {
            now();
            bundler.send();
            afterEngineCall();
        }
    }

    /**
     * An application's message, taken now: packed into the datagram being filled or a new one (the caller checked
     * that the engine can take a new one, unless it {@link #joinsOpenDatagram joins}), then delivered to this node's
     * subscribers of the group that take local sends (docs/api.md, "Local delivery"); returns its message id.
     *
     * @throws ApiException NOT_A_MEMBER if this node is not (or no longer) in the group
     */
    long sendFromApplication(int group, byte[] payload, DeliveryListener from) {
        if (!isMember(group)) {
            throw new ApiException(ApiException.Code.NOT_A_MEMBER, "node " + self + " is not in group " + group
                    + " (any more): join it first");
        }
        // No clock here: a message that joins the open datagram needs none, and a new datagram reads it on its way
        // to the engine (sendDatagram).
        long id = bundler.add(group, payload);
        counters.add(DaemonCounter.LOCAL_DELIVERIES, subscribers.deliveredLocal(self, group, id, payload, from));
        endOfSendsLater();
        return id;
    }

    /**
     * The datagrams of the application sends the loop runs in one batch of tasks go out in one flush at the end of
     * the batch: with gso, one system call per run of datagrams instead of one per message, and the timer is re-armed
     * once. A send's datagram waits at most for the rest of the batch it arrived in.
     */
    private void endOfSendsLater() {
        if (!sendsFlushPending) {
            sendsFlushPending = true;
            afterBatch.execute(flushSends);
        }
    }

    private void flushSends() {
        sendsFlushPending = false;
        now();
        afterEngineCall();
    }

    /**
     * Fragment {@code index} of {@code count} of an application's message too large for one datagram
     * (docs/design/daemon.md, "Fragmentation"): sent as a datagram of its own (the datagram being filled goes
     * first), the fragments of a message at consecutive seqnos; once the last is sent, the whole message is delivered
     * to this node's subscribers that take local sends. Returns the message's id: its first fragment's.
     *
     * @throws ApiException NOT_A_MEMBER if this node is not (or no longer) in the group
     */
    long sendFragmentFromApplication(int group, byte[] message, int index, int count, DeliveryListener from) {
        if (!isMember(group)) {
            throw new ApiException(ApiException.Code.NOT_A_MEMBER, "node " + self + " is not in group " + group
                    + " (any more): join it first");
        }
        if (bundler.isOpen()) {
            bundler.send();
        }
        int piece = fragment.length - BundleFormat.FRAGMENT_HEADER;
        int at = index * piece;
        int length = Math.min(piece, message.length - at);
        BundleFormat.writeFragmentHeader(fragment, 0, count, index);
        System.arraycopy(message, at, fragment, BundleFormat.FRAGMENT_HEADER, length);
        long seqno = engine.send(group, fragment, 0, BundleFormat.FRAGMENT_HEADER + length, now());
        long id = MessageId.of(seqno - index, 0);
        if (index == count - 1) {
            counters.add(DaemonCounter.LOCAL_DELIVERIES, subscribers.deliveredLocal(self, group, id, message, from));
        }
        endOfSendsLater();
        return id;
    }

    // ------------------------------------------------------------------ Bundler.Engine

    @Override
    public long nextSeqno(int group) {
        return engine.sentTo(group);
    }

    @Override
    public long sendDatagram(int group, byte[] payload, int offset, int length) {
        return engine.send(group, payload, offset, length, now());
    }

    @Override
    public void sentOnItsOwn() {
        afterEngineCall();
    }

    /** Reads the clock for an engine call made outside a batch (an application's send); returns the time. */
    long now() {
        nowNs = clock.getAsLong();
        return nowNs;
    }

    /** Call after any engine call made on the loop thread: flush sends and deliveries, re-arm the single timer. */
    void afterEngineCall() {
        transport.flush();
        subscribers.endOfBatch();
        long deadline = engine.nextDeadlineNs();
        if (deadline != Long.MAX_VALUE && (wake == null || wake.isDone() || deadline < wakeNs)) {
            scheduleWake(deadline);
        }
    }

    private void scheduleWake(long deadlineNs) {
        if (wake != null) {
            wake.cancel(false);
        }
        wakeNs = deadlineNs;
        long delay = Math.max(0, deadlineNs - nowNs);
        wake = loop.schedule(this::onWake, delay, TimeUnit.NANOSECONDS);
    }

    private void onWake() {
        wakeNs = Long.MAX_VALUE;
        engine.onTimer(now());
        afterEngineCall();
    }

    // ------------------------------------------------------------------ membership (from the GMS, on the loop)

    /** A full view of {@code group}, reconciled with the engine's ({@link ViewReconciler#applyView}). */
    void applyView(int group, InetSocketAddress multicast, Map<Integer, InetSocketAddress> members,
                   Map<Integer, Long> incarnations) {
        applyView(group, multicast, List.of(multicast), members, incarnations, List.of());
    }

    /**
     * As above, for a group with regions: this node listens on {@code listen}, sends to every destination, and the
     * engine learns the members of each region ({@link ProtocolEngine#onRegions}; empty: no regions).
     */
    void applyView(int group, InetSocketAddress listen, List<InetSocketAddress> destinations,
                   Map<Integer, InetSocketAddress> members, Map<Integer, Long> incarnations,
                   List<List<Integer>> regions) {
        sendOpenDatagram();
        long nowNs = now();
        views.applyView(group, listen, destinations, members, incarnations);
        engine.onRegions(group, regions, nowNs);
        afterEngineCall();
    }

    /** This node's id. */
    int self() {
        return self;
    }

    /** One membership change pushed by the GMS ({@link ViewReconciler#applyEvent}). */
    void applyEvent(MembershipEvent event, InetSocketAddress unicast) {
        sendOpenDatagram();
        now();
        views.applyEvent(event, unicast);
        afterEngineCall();
        // The engine drops a departed sender's stream after its give-up time, twice over: sweep until then.
        sweepUntilNs = nowNs + SWEEP_AFTER_CHANGES_NS;
        sweepMessagesLater();
    }

    /**
     * Closes, within a second, the message streams whose sender restarted, failed or left once the engine dropped
     * them (a message it never finished is reported LOST), and again while any stream waits for something.
     */
    private void sweepMessagesLater() {
        if (!sweepPending) {
            sweepPending = true;
            loop.schedule(this::sweepMessages, 1, TimeUnit.SECONDS);
        }
    }

    private void sweepMessages() {
        sweepPending = false;
        boolean waiting = messages.sweep();
        subscribers.endOfBatch();
        if (waiting || now() - sweepUntilNs < 0) {
            sweepMessagesLater();
        }
    }

    boolean isMember(int group) {
        return views.isMember(group);
    }

    // ------------------------------------------------------------------ local subscribers

    void addListener(int group, DeliveryListener listener) {
        subscribers.add(group, listener);
    }

    /** Removes the listener; returns true if it was the group's last one. */
    boolean removeListener(int group, DeliveryListener listener) {
        return subscribers.remove(group, listener);
    }

    Set<Integer> subscribedGroups() {
        return subscribers.groups();
    }

    /** The groups this node is in, ascending. */
    List<Integer> myGroups() {
        return views.myGroups();
    }

    // ------------------------------------------------------------------ Outbox

    @Override
    public void multicast(int group, byte[] frame, int offset, int length) {
        List<InetSocketAddress> destinations = views.destinations(group);
        if (destinations.isEmpty()) {
            counters.increment(DaemonCounter.UNKNOWN_DESTINATIONS);
            return;
        }
        // With regions, once to each region of the group (QSM section 3); else the one group address. Indexed: no
        // iterator per frame.
        for (int i = 0; i < destinations.size(); i++) {
            transport.send(destinations.get(i), FrameGuard.NO_DESTINATION, frame, offset, length);
        }
    }

    @Override
    public void unicast(int node, byte[] frame, int offset, int length) {
        InetSocketAddress to = views.unicastAddress(node);
        if (to == null) {
            counters.increment(DaemonCounter.UNKNOWN_DESTINATIONS);
            return;
        }
        transport.send(to, node, frame, offset, length);
    }

    @Override
    public void deliver(int origin, int group, long seqno, byte[] payload, int offset, int length, Delivery how) {
        if (how != Delivery.DIRECT) {
            latencies.recovered(self, new PacketId(origin, group, seqno), how, nowNs);
        }
        if (seqno > MAX_DATAGRAM) {
            counters.increment(DaemonCounter.MALFORMED_DATAGRAMS);
            return;
        }
        messages.delivered(origin, group, seqno, payload, offset, length);
        if (!sweepPending && messages.dirty()) {
            sweepMessagesLater();
        }
    }

    /**
     * The engine gave up on a datagram: one LOST names the message it carried or began, or covers all its messages
     * ({@link MessageStreams}).
     */
    @Override
    public void lost(int origin, int group, long seqno, long discoveredNs) {
        if (seqno <= MAX_DATAGRAM) {
            messages.lost(origin, group, seqno);
            if (!sweepPending && messages.dirty()) {
                sweepMessagesLater();
            }
        } else {
            counters.increment(DaemonCounter.MALFORMED_DATAGRAMS);
        }
    }

    @Override
    public void wakeAt(long deadlineNs) {
        // Re-armed after every engine call by afterEngineCall(), from nextDeadlineNs().
    }

    @Override
    public void lossDiscovered(int origin, int group, long seqno, long discoveredNs) {
        latencies.discovered(self, new PacketId(origin, group, seqno), discoveredNs);
    }
}
