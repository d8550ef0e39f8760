package io.ricochet.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.api.ApiException;
import io.ricochet.api.NodeStats;
import io.ricochet.api.Ordering;
import io.ricochet.api.protocol.ApiFrame;
import io.ricochet.api.protocol.ApiFrameType;
import io.ricochet.api.protocol.ApiProtocol;
import io.ricochet.api.protocol.ApiPush;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A connection to the Ricochet daemon of this blade over its local API (docs/api.md), by TCP or by the daemon's
 * Unix domain socket ({@link #connect(Path, ClientOptions)}). Thread-safe: any thread
 * may send requests, and each blocks until its reply. One reader thread per client receives replies and
 * deliveries; deliveries go to the {@link #subscribe} callback, on that thread, or else to a bounded queue read
 * with {@link #poll}.
 *
 * <p>Failures: a request the daemon refuses throws {@link ApiException} with the code of its ERROR frame (a request
 * unanswered within the timeout throws it with {@code UNAVAILABLE}); once the connection is gone every request
 * throws {@link ApiConnectionException}.
 *
 * <pre>{@code
 * try (RicochetClient client = RicochetClient.connect("127.0.0.1", 7400)) {
 *     client.join(42);
 *     long id = client.send(42, "hello".getBytes(StandardCharsets.UTF_8));
 *     Delivery d = client.poll(5, TimeUnit.SECONDS);
 * }
 * }</pre>
 */
public final class RicochetClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Longest pause of a blocking {@link #send} between offers to a daemon whose send queue is full. */
    private static final long MAX_BUSY_PAUSE_MS = 50;

    private final FrameSocket socket;
    private final ClientOptions options;
    private final PendingRequests pending = new PendingRequests();
    private final Inbox inbox;
    private final Thread reader;
    /** Why the connection is gone; null while it is open. */
    private volatile ApiConnectionException closeReason;
    private volatile String refusal;
    private volatile ApiReply.HelloReply hello;

    /**
     * @param inbox made before the connection is opened: its class starts the logging framework, which can take
     *              seconds in a cold JVM on a busy host, and the daemon closes a connection that says no HELLO within
     *              5 s (docs/api.md, "Session")
     */
    private RicochetClient(FrameSocket socket, Inbox inbox, ClientOptions options, String address) {
        this.socket = socket;
        this.options = options;
        this.inbox = inbox;
        this.reader = new Thread(this::readLoop, "ricochet-client-" + address);
        this.reader.setDaemon(true);
    }

    /** Connects with {@link ClientOptions#defaults()} and says HELLO. */
    public static RicochetClient connect(String host, int port) {
        return connect(host, port, ClientOptions.defaults());
    }

    /**
     * Connects to the daemon's API at {@code host:port} and says HELLO, then OPTIONS if {@code options} turn off
     * {@link ClientOptions#echo() echo} or {@link ClientOptions#localDelivery() local delivery}.
     *
     * @throws ApiConnectionException if the daemon cannot be reached
     * @throws ApiException           if the daemon refuses the HELLO (e.g. {@code UNSUPPORTED_VERSION})
     */
    public static RicochetClient connect(String host, int port, ClientOptions options) {
        try {
            return greet(tcp(host, port, options), options, ApiProtocol.VERSION);
        } catch (ApiException e) {
            if (e.code() != ApiException.Code.UNSUPPORTED_VERSION) {
                throw e;
            }
        }
        return greet(tcp(host, port, options), options, ApiProtocol.LARGE_MESSAGE_VERSION - 1);
    }

    private static RicochetClient tcp(String host, int port, ClientOptions options) {
        String address = host + ":" + port;
        Inbox inbox = new Inbox(options.queueCapacity());
        Socket raw = new Socket();
        RicochetClient client;
        try {
            raw.setTcpNoDelay(true);
            raw.connect(new InetSocketAddress(host, port), (int) options.connectTimeout().toMillis());
            client = new RicochetClient(FrameSocket.of(raw), inbox, options, address);
        } catch (IOException e) {
            closeQuietly(raw);
            String why = e instanceof UnknownHostException ? "unknown host " + host : e.getMessage();
            throw new ApiConnectionException("cannot connect to the Ricochet daemon at " + address + ": " + why, e);
        }
        return client;
    }

    /** Connects to the daemon's Unix domain socket at {@code socket} with {@link ClientOptions#defaults()}. */
    public static RicochetClient connect(Path socket) {
        return connect(socket, ClientOptions.defaults());
    }

    /**
     * Connects to the daemon's API over its Unix domain socket at {@code socket} and says HELLO, then OPTIONS as
     * {@link #connect(String, int, ClientOptions)} does. Connecting needs write permission on the socket file.
     * The connect timeout does not apply: connecting to a local socket either succeeds or fails at once.
     *
     * @throws ApiConnectionException if the daemon cannot be reached (no such socket, permission denied, nothing
     *                                listening)
     * @throws ApiException           if the daemon refuses the HELLO (e.g. {@code UNSUPPORTED_VERSION})
     */
    public static RicochetClient connect(Path socket, ClientOptions options) {
        try {
            return greet(unix(socket, options), options, ApiProtocol.VERSION);
        } catch (ApiException e) {
            if (e.code() != ApiException.Code.UNSUPPORTED_VERSION) {
                throw e;
            }
        }
        return greet(unix(socket, options), options, ApiProtocol.LARGE_MESSAGE_VERSION - 1);
    }

    private static RicochetClient unix(Path socket, ClientOptions options) {
        String address = "unix:" + socket;
        Inbox inbox = new Inbox(options.queueCapacity());
        SocketChannel channel = null;
        RicochetClient client;
        try {
            channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
            client = new RicochetClient(FrameSocket.of(channel), inbox, options, address);
        } catch (IOException | UnsupportedOperationException e) {
            if (channel != null) {
                closeQuietly(channel);
            }
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new ApiConnectionException("cannot connect to the Ricochet daemon at " + address + ": " + why,
                    e instanceof IOException io ? io : new IOException(e));
        }
        return client;
    }

    /**
     * Starts the reader and says HELLO in {@code version} (and OPTIONS if needed); closes the client if that fails.
     * A daemon that does not speak version 3 refuses it with {@code UNSUPPORTED_VERSION}, and the connect methods
     * then try again, once, with version 2: messages of one datagram at most, and no ORDER.
     */
    private static RicochetClient greet(RicochetClient client, ClientOptions options, int version) {
        client.reader.start();
        try {
            ApiReply.HelloReply reply = client.request(id -> new ApiRequest.Hello(id, version,
                    options.clientName()), ApiReply.HelloReply.class);
            client.socket.inboundLimit(ApiProtocol.inboundFrameLimit(reply.version(), reply.maxMessage()));
            client.hello = reply;
            int flags = options.optionFlags();
            if (flags != 0) {
                client.request(id -> new ApiRequest.Options(id, flags), ApiReply.Ok.class);
            }
            return client;
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The daemon's node id. */
    public int nodeId() {
        return hello.nodeId();
    }

    /**
     * The largest message one datagram carries, in bytes: a larger one (up to {@link #maxMessage()}) is fragmented
     * by the daemon and delivered whole (docs/api.md, "Message ids"). Applications that want one datagram per
     * message (the fountain carousel's symbols) keep to it.
     */
    public int maxPayload() {
        return hello.maxPayload();
    }

    /**
     * The largest message {@link #send} and {@link #trySend} accept, in bytes: the daemon's {@code max-message}
     * (16 MiB by default) under protocol version 3; what one datagram carries with a daemon that speaks only
     * version 2 or older.
     */
    public int maxMessage() {
        return hello.maxMessage();
    }

    /** The protocol version this connection speaks: 3, or 2 with a daemon that does not speak 3. */
    public int protocolVersion() {
        return hello.version();
    }

    /**
     * Sets how this connection takes {@code group}'s messages from now on (ORDER; docs/api.md, "Ordering"): FIFO,
     * each sender's messages in the order its daemon accepted them, a LOST in the place of a message given up; or
     * UNORDERED (the default), each message as soon as it is complete. Valid before or after {@link #join}.
     *
     * @throws ApiException {@code LIMIT_EXCEEDED} when the connection already has FIFO order in as many groups as it
     *                      may join; {@code UNSUPPORTED_VERSION} when the daemon speaks a version without ORDER
     */
    public void order(int group, Ordering ordering) {
        Objects.requireNonNull(ordering, "ordering");
        if (protocolVersion() < ApiProtocol.LARGE_MESSAGE_VERSION) {
            throw new ApiException(ApiException.Code.UNSUPPORTED_VERSION, "the daemon speaks protocol version "
                    + protocolVersion() + ", which has no ORDER (version " + ApiProtocol.LARGE_MESSAGE_VERSION + ")");
        }
        request(id -> new ApiRequest.Order(id, group, ordering), ApiReply.Ok.class);
    }

    /** Subscribes this connection to {@code group}; deliveries for it start arriving. Joining twice is a no-op. */
    public void join(int group) {
        request(id -> new ApiRequest.Join(id, group), ApiReply.Ok.class);
    }

    /** Unsubscribes; no delivery for {@code group} arrives after this returns. */
    public void leave(int group) {
        request(id -> new ApiRequest.Leave(id, group), ApiReply.Ok.class);
    }

    /**
     * Multicasts {@code payload} to {@code group}, which this client must have joined. Blocks until the daemon took
     * the packet: while the packet waits in the daemon's send queue, and, when that queue itself is full (ERROR
     * {@code BUSY}), offering it again after a pause of up to 50 ms, until the request timeout ({@code UNAVAILABLE},
     * or {@code BUSY} if the queue stayed full).
     *
     * @return the message's id ({@link io.ricochet.api.MessageId}: its datagram's seqno * 4096 + its index there)
     */
    public long send(int group, byte[] payload) {
        return send(group, ByteBuffer.wrap(payload));
    }

    /**
     * As {@link #send(int, byte[])}, with the payload's remaining bytes; the buffer's position does not change. The
     * bytes are written from the buffer as they are, never copied whole: the caller must not change them until this
     * returns.
     */
    public long send(int group, ByteBuffer payload) {
        checkPayload(payload.remaining());
        long deadline = System.nanoTime() + options.requestTimeout().toNanos();
        long pauseMs = 1;
        while (true) {
            try {
                return request(ApiFrameType.SEND, id -> socket.writeSend(ApiFrameType.SEND, id, group, payload),
                        ApiReply.Ok.class).value();
            } catch (ApiException e) {
                // BUSY: the daemon's send queue itself is full; wait a little and offer the packet again.
                if (e.code() != ApiException.Code.BUSY || System.nanoTime() + pauseMs * 1_000_000 - deadline > 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(pauseMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ApiException(ApiException.Code.UNAVAILABLE, "interrupted while the daemon was busy");
            }
            pauseMs = Math.min(MAX_BUSY_PAUSE_MS, pauseMs * 2);
        }
    }

    /**
     * As {@link #send}, but when the daemon cannot take the packet at once it refuses it instead of waiting.
     *
     * @return the message's id ({@link io.ricochet.api.MessageId}: its datagram's seqno * 4096 + its index there)
     * @throws ApiException with {@code BUSY} when the daemon's send queue is full or its rate limit reached;
     *                      nothing was sent, and the caller may retry later
     */
    public long trySend(int group, byte[] payload) {
        return trySend(group, ByteBuffer.wrap(payload));
    }

    /** As {@link #trySend(int, byte[])}, with the payload's remaining bytes, as {@link #send(int, ByteBuffer)}. */
    public long trySend(int group, ByteBuffer payload) {
        checkPayload(payload.remaining());
        return request(ApiFrameType.TRY_SEND, id -> socket.writeSend(ApiFrameType.TRY_SEND, id, group, payload),
                ApiReply.Ok.class).value();
    }

    private void checkPayload(int length) {
        if (length > maxMessage()) {
            throw new ApiException(ApiException.Code.PAYLOAD_TOO_LARGE, "payload of " + length
                    + " bytes exceeds the maximum of " + maxMessage());
        }
    }

    /** The daemon's stats; the API server's own counters are in {@link NodeStats#api()}. */
    public NodeStats stats() {
        byte[] json = request(ApiRequest.Stats::new, ApiReply.StatsReply.class).json();
        try {
            return JSON.readValue(json, NodeStats.class);
        } catch (IOException e) {
            throw new ApiException(ApiException.Code.INTERNAL, "the daemon's stats are not valid JSON: "
                    + e.getMessage());
        }
    }

    /**
     * Sends every later delivery to {@code callback}, called on the reader thread: it must return quickly, since
     * replies wait behind it. Deliveries already queued stay there for {@link #poll}; null restores queueing.
     */
    public void subscribe(Consumer<Delivery> callback) {
        inbox.subscribe(callback);
    }

    /**
     * The next delivery, waiting up to {@code timeout}; null if none came. Deliveries are queued only while no
     * callback is subscribed, up to {@link ClientOptions#queueCapacity()}: when the queue is full, newer ones are
     * dropped and counted in {@link #droppedDeliveries()}.
     *
     * @throws ApiConnectionException once the connection is gone and the queue is empty
     */
    public Delivery poll(long timeout, TimeUnit unit) throws InterruptedException {
        return inbox.poll(timeout, unit);
    }

    /** Deliveries this client dropped because its queue was full. */
    public long droppedDeliveries() {
        return inbox.dropped();
    }

    /** Deliveries the daemon dropped for this connection because it read too slowly (sum of OVERFLOW frames). */
    public long overflowedDeliveries() {
        return inbox.overflowed();
    }

    /** False once the connection is closed, by {@link #close()} or by the daemon. */
    public boolean isOpen() {
        return closeReason == null;
    }

    /** Closes the connection; waiting requests fail. The daemon leaves this client's groups. Idempotent. */
    @Override
    public void close() {
        shutdown(new ApiConnectionException("the client was closed"));
    }

    /** Writes one request frame with the request id it is given. */
    @FunctionalInterface
    private interface RequestWriter {
        void write(int requestId) throws IOException;
    }

    private <T extends ApiReply> T request(IntFunction<ApiRequest> build, Class<T> expected) {
        ApiRequest[] built = new ApiRequest[1];
        return request(null, id -> {
            built[0] = build.apply(id);
            socket.write(built[0]);
        }, expected, built);
    }

    private <T extends ApiReply> T request(ApiFrameType type, RequestWriter writer, Class<T> expected) {
        return request(type, writer, expected, null);
    }

    /** Sends a request (its type for messages is {@code type}, or that of {@code built[0]}) and awaits the reply. */
    private <T extends ApiReply> T request(ApiFrameType type, RequestWriter writer, Class<T> expected,
            ApiRequest[] built) {
        throwIfClosed();
        CompletableFuture<ApiReply> future = new CompletableFuture<>();
        int id = pending.register(future);
        try {
            writer.write(id);
        } catch (IOException e) {
            pending.forget(id);
            awaitReader();
            shutdown(connectionLost(e));
            throwIfClosed();
        }
        ApiFrameType sent = type != null ? type : built[0].type();
        ApiReply reply = await(future, id, sent);
        if (reply instanceof ApiReply.Error error) {
            throw error.toException();
        }
        if (!expected.isInstance(reply)) {
            throw new ApiException(ApiException.Code.INTERNAL, "the daemon answered " + sent + " with "
                    + reply.type());
        }
        return expected.cast(reply);
    }

    private ApiReply await(CompletableFuture<ApiReply> future, int id, ApiFrameType request) {
        long timeoutMs = options.requestTimeout().toMillis();
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.forget(id);
            throw new ApiException(ApiException.Code.UNAVAILABLE, "no reply to " + request + " within "
                    + timeoutMs + " ms");
        } catch (InterruptedException e) {
            pending.forget(id);
            Thread.currentThread().interrupt();
            throw new ApiException(ApiException.Code.UNAVAILABLE, "interrupted waiting for the reply to "
                    + request);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ApiConnectionException gone) {
                throw new ApiConnectionException(gone.getMessage(), gone.getCause());
            }
            throw new IllegalStateException("request failed unexpectedly", e.getCause());
        }
    }

    /**
     * After a failed write, gives the reader up to the request timeout to read what the daemon sent before it
     * closed, so the reason reported is the daemon's (an ERROR such as {@code LIMIT_EXCEEDED}) rather than the
     * write's. Over a Unix socket a write to a closed peer fails at once (EPIPE), often before that ERROR is read.
     */
    private void awaitReader() {
        if (Thread.currentThread() == reader) {
            return;
        }
        try {
            reader.join(options.requestTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Throws a fresh copy (with this caller's stack) of the reason the connection is gone, if it is. */
    private void throwIfClosed() {
        ApiConnectionException reason = closeReason;
        if (reason != null) {
            throw new ApiConnectionException(reason.getMessage(), reason.getCause());
        }
    }

    private void readLoop() {
        try {
            while (closeReason == null) {
                dispatch(socket.read());
            }
        } catch (Exception e) {
            shutdown(connectionLost(e));
        }
    }

    private void dispatch(ApiFrame frame) {
        if (frame instanceof ApiPush.Deliver d) {
            inbox.offer(Delivery.delivered(d.origin(), d.group(), d.seqno(), d.payload()));
        } else if (frame instanceof ApiPush.Lost lost) {
            inbox.offer(Delivery.lost(lost.origin(), lost.group(), lost.seqno()));
        } else if (frame instanceof ApiPush.Dropped run) {
            inbox.offer(Delivery.dropped(run.origin(), run.group(), run.firstId(), run.lastId()));
        } else if (frame instanceof ApiPush.Overflow overflow) {
            inbox.overflowed(overflow.dropped());
        } else if (frame instanceof ApiReply reply && !pending.complete(reply) && reply instanceof ApiReply.Error e) {
            refusal = e.code() + ": " + e.message();
        }
    }

    private ApiConnectionException connectionLost(Exception cause) {
        String reason = refusal != null ? "the daemon closed the connection after an error (" + refusal + ")"
                : "connection to the daemon lost: "
                        + (cause instanceof EOFException ? "the daemon closed it" : cause.toString());
        IOException io = cause instanceof IOException e ? e : new IOException(cause.getMessage(), cause);
        return new ApiConnectionException(reason, io);
    }

    /** Closes everything once; the first reason given is the one every later request reports. */
    private void shutdown(ApiConnectionException reason) {
        synchronized (this) {
            if (closeReason != null) {
                return;
            }
            closeReason = reason;
        }
        closeQuietly(socket);
        pending.closeAll(reason);
        inbox.close();
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            // closing a broken socket: nothing left to do
        }
    }
}
