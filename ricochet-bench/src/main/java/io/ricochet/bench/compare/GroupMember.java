package io.ricochet.bench.compare;

import java.util.Map;

/**
 * One member of the experiment on one system: it joins its groups, sends the harness's payloads and hands what its
 * application receives to its {@link DeliveryStats}, telling which deliveries were recoveries from its
 * {@link DropLog}.
 */
public interface GroupMember extends AutoCloseable {
    /** Starts the member and joins its groups. */
    void start() throws Exception;

    /** Whether every group of the member has all the experiment's members in its view. */
    boolean ready() throws Exception;

    /** Multicasts {@code payload} to {@code group}; blocks while the system pushes back. */
    void send(int group, byte[] payload) throws Exception;

    /** Waits until every send handed to {@link #send} was taken by the system; returns the sends that failed. */
    long flush() throws Exception;

    /** What the member's application received. */
    DeliveryStats stats();

    /** The messages whose first copy was dropped at this member. */
    DropLog drops();

    /**
     * The system's own counters of this member that explain a result (retransmission requests and answers, drops),
     * non-zero ones only; read before {@link #close}.
     */
    Map<String, Long> counters() throws Exception;

    /** Leaves and stops; never throws. */
    @Override
    void close();
}
