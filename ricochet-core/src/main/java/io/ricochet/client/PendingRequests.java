package io.ricochet.client;

import io.ricochet.api.protocol.ApiReply;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Requests sent and not yet answered, by request id; fails them all when the connection goes. */
final class PendingRequests {
    private final Map<Integer, CompletableFuture<ApiReply>> waiting = new ConcurrentHashMap<>();
    private final AtomicInteger lastId = new AtomicInteger();
    private volatile ApiConnectionException closedBy;

    /** Allocates a request id (never 0, which marks pushed frames) and the future its reply completes. */
    int register(CompletableFuture<ApiReply> reply) {
        int id;
        do {
            id = lastId.incrementAndGet();
        } while (id == 0 || waiting.putIfAbsent(id, reply) != null);
        ApiConnectionException closed = closedBy;
        if (closed != null) {
            forget(id);
            reply.completeExceptionally(closed);
        }
        return id;
    }

    void forget(int requestId) {
        waiting.remove(requestId);
    }

    /** Completes the request {@code reply} answers; false if none waits for it. */
    boolean complete(ApiReply reply) {
        CompletableFuture<ApiReply> future = waiting.remove(reply.requestId());
        return future != null && future.complete(reply);
    }

    /** Fails every waiting request, and every later one, with {@code reason}. */
    void closeAll(ApiConnectionException reason) {
        closedBy = reason;
        for (Integer id : waiting.keySet()) {
            CompletableFuture<ApiReply> future = waiting.remove(id);
            if (future != null) {
                future.completeExceptionally(reason);
            }
        }
    }
}
