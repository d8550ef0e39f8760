package io.ricochet.api.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.api.ApiException;
import io.ricochet.api.LocalNode;
import io.ricochet.api.NodeStats;
import io.ricochet.api.protocol.ApiReply;
import io.ricochet.api.protocol.ApiRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the requests of one connection after HELLO: JOIN, LEAVE, SEND, TRY_SEND, OPTIONS, ORDER and STATS,
 * each
 * turned into a call on the {@link LocalNode} (or the connection's {@link Subscription}) and a future that always
 * completes with a reply, ERROR included.
 */
final class RequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LocalNode node;
    private final ApiCounters counters;
    private final Subscription subscription;
    private final int maxPayload;
    private final int maxGroups;
    private final Access access;

    /**
     * What the connection's user may do: its principal, the server's quotas per principal, and the settings.
     *
     * @param principal who is on the other end of the connection
     * @param quotas    the quotas per principal, shared by all connections
     * @param settings  the quotas' limits and the group allow list
     */
    record Access(Principal principal, PrincipalQuotas quotas, ApiAccess settings) {
    }

    /**
     * @param maxPayload the largest payload a SEND or TRY_SEND may carry
     * @param maxGroups  the most groups the connection may be in ({@link ApiConfig#maxGroupsPerConnection()})
     * @param access     the connection's principal and what it may do
     */
    RequestHandler(LocalNode node, ApiCounters counters, Subscription subscription, int maxPayload, int maxGroups,
            Access access) {
        this.node = node;
        this.counters = counters;
        this.subscription = subscription;
        this.maxPayload = maxPayload;
        this.maxGroups = maxGroups;
        this.access = access;
    }

    /** Starts {@code request}; the future completes with its OK, STATS_REPLY or ERROR. */
    CompletableFuture<ApiReply> handle(ApiRequest request) {
        if (request instanceof ApiRequest.Join join) {
            return join(join);
        } else if (request instanceof ApiRequest.Leave leave) {
            return leave(leave);
        } else if (request instanceof ApiRequest.Send send) {
            return send(send.requestId(), send.group(), send.payload(), true);
        } else if (request instanceof ApiRequest.TrySend send) {
            return send(send.requestId(), send.group(), send.payload(), false);
        } else if (request instanceof ApiRequest.Options options) {
            subscription.options(options.flags());
            return CompletableFuture.completedFuture(new ApiReply.Ok(options.requestId(), 0));
        } else if (request instanceof ApiRequest.Order order) {
            return order(order);
        } else if (request instanceof ApiRequest.Stats stats) {
            int id = stats.requestId();
            return call(node::stats, map -> new ApiReply.StatsReply(id, json(map)), id);
        }
        throw new IllegalArgumentException(request.type() + " is answered by the connection, not here");
    }

    private CompletableFuture<ApiReply> join(ApiRequest.Join join) {
        if (subscription.contains(join.group())) {
            return CompletableFuture.completedFuture(new ApiReply.Ok(join.requestId(), 0));
        }
        if (subscription.size() >= maxGroups) {
            counters.increment(ApiCounter.GROUP_LIMIT_REFUSALS);
            return error(join.requestId(), ApiException.Code.LIMIT_EXCEEDED, "this connection is already in "
                    + subscription.size() + " groups, the limit is " + maxGroups
                    + " (maxGroupsPerConnection, the daemon's api-max-groups-per-connection)");
        }
        if (!permitted(join.group())) {
            return notPermitted(join.requestId(), "join", join.group());
        }
        Principal principal = access.principal();
        if (!access.quotas().joinGroup(principal)) {
            counters.increment(ApiCounter.PRINCIPAL_GROUP_REFUSALS);
            return error(join.requestId(), ApiException.Code.LIMIT_EXCEEDED, "user " + principal + " is already in "
                    + access.settings().maxGroupsPerPrincipal() + " groups over all its connections, the most one "
                    + "user may join (maxGroupsPerPrincipal, the daemon's api-max-groups-per-uid)");
        }
        subscription.add(join.group());
        return call(() -> node.join(join.group(), subscription), ok -> new ApiReply.Ok(join.requestId(), 0),
                join.requestId()).whenComplete((reply, failure) -> {
                    // Not removed already by the connection closing meanwhile: give the membership back once.
                    if (reply instanceof ApiReply.Error && subscription.remove(join.group())) {
                        access.quotas().leaveGroup(principal);
                    }
                });
    }

    /**
     * ORDER: FIFO is kept per group, for at most as many groups as the connection may join; UNORDERED is the default
     * and takes no room.
     */
    private CompletableFuture<ApiReply> order(ApiRequest.Order order) {
        if (!subscription.order(order.group(), order.ordering(), maxGroups)) {
            return error(order.requestId(), ApiException.Code.LIMIT_EXCEEDED, "this connection already asked for "
                    + "FIFO order in " + maxGroups + " groups, the limit is that of its groups "
                    + "(maxGroupsPerConnection, the daemon's api-max-groups-per-connection)");
        }
        return CompletableFuture.completedFuture(new ApiReply.Ok(order.requestId(), 0));
    }

    private CompletableFuture<ApiReply> leave(ApiRequest.Leave leave) {
        if (!subscription.remove(leave.group())) {
            return notAMember(leave.requestId(), leave.group());
        }
        access.quotas().leaveGroup(access.principal());
        return call(() -> node.leave(leave.group(), subscription), ok -> new ApiReply.Ok(leave.requestId(), 0),
                leave.requestId());
    }

    /** SEND ({@code wait}) and TRY_SEND (without: the node fails at once with BUSY when it is full). */
    private CompletableFuture<ApiReply> send(int requestId, int group, byte[] payload, boolean wait) {
        if (!subscription.contains(group)) {
            return notAMember(requestId, group);
        }
        if (payload.length > maxPayload) {
            return error(requestId, ApiException.Code.PAYLOAD_TOO_LARGE, "payload of " + payload.length
                    + " bytes exceeds the maximum of " + maxPayload);
        }
        if (!permitted(group)) {
            return notPermitted(requestId, "send to", group);
        }
        if (!access.quotas().trySend(access.principal())) {
            counters.increment(ApiCounter.SEND_RATE_REFUSALS);
            return error(requestId, ApiException.Code.BUSY, "user " + access.principal() + " is over its rate of "
                    + access.settings().maxSendsPerSecondPerPrincipal() + " sends per second "
                    + "(maxSendsPerSecondPerPrincipal, the daemon's api-max-sends-per-second-per-uid); retry later");
        }
        return call(() -> node.send(group, payload, subscription, wait), seqno -> new ApiReply.Ok(requestId, seqno),
                requestId);
    }

    /** Calls the node, turning a synchronous throw into a failed future like an asynchronous one. */
    private <T> CompletableFuture<ApiReply> call(Supplier<CompletableFuture<T>> action,
            Function<T, ApiReply> onSuccess, int requestId) {
        try {
            return action.get().thenApply(onSuccess).exceptionally(failure -> failure(requestId, failure));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failure(requestId, e));
        }
    }

    private byte[] json(NodeStats stats) {
        try {
            return JSON.writeValueAsBytes(stats.withApi(counters.snapshot()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stats are not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private boolean permitted(int group) {
        return access.settings().groupAccess().allows(access.principal(), group);
    }

    private CompletableFuture<ApiReply> notPermitted(int requestId, String what, int group) {
        counters.increment(ApiCounter.ACCESS_REFUSALS);
        return error(requestId, ApiException.Code.NOT_PERMITTED, "user " + access.principal() + " may not " + what
                + " group " + group + ": its allow list (the daemon's api-group-access) names neither its uid nor "
                + "its gid" + (access.principal().kind() == Principal.Kind.UID ? ""
                        : "; connect over the Unix socket, where the daemon learns the uid"));
    }

    private CompletableFuture<ApiReply> notAMember(int requestId, int group) {
        return error(requestId, ApiException.Code.NOT_A_MEMBER, "this connection has not joined group " + group);
    }

    private CompletableFuture<ApiReply> error(int requestId, ApiException.Code code, String message) {
        counters.increment(ApiCounter.REQUESTS_FAILED);
        return CompletableFuture.completedFuture(new ApiReply.Error(requestId, code, message));
    }

    private ApiReply failure(int requestId, Throwable failure) {
        Throwable cause = unwrap(failure);
        counters.increment(ApiCounter.REQUESTS_FAILED);
        if (cause instanceof ApiException api) {
            return new ApiReply.Error(requestId, api.code(), String.valueOf(api.getMessage()));
        }
        LOG.warn("request {} failed inside the daemon: {}", requestId, cause.toString());
        return new ApiReply.Error(requestId, ApiException.Code.INTERNAL, "internal error: " + cause);
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
