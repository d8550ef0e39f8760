package io.ricochet.bench.load;

import java.util.List;

/**
 * What a sink received, as printed and written to JSON by {@code bench sink}.
 *
 * @param api                  the daemon's API address
 * @param nodeId               the daemon's node id
 * @param groups               the groups joined, as a group list
 * @param seconds              time from the joins to the stop
 * @param delivered            messages delivered (first copies)
 * @param lost                 loss notices: datagrams the daemon gave up on, each covering all its messages
 * @param duplicates           message ids handed over more than once (must be 0)
 * @param unchecked            ids whose datagram seqno is too large to check for duplicates
 * @param streams              distinct (origin, group) streams seen
 * @param overflowedDeliveries deliveries the daemon dropped because this client read too slowly
 * @param droppedDeliveries    deliveries this client dropped (its queue; 0 with a callback)
 * @param meanRate             delivered / seconds
 * @param peakRate             the most deliveries in one one-second interval
 * @param perSecond            deliveries in each one-second interval after the joins
 * @param cpuSeconds           this process's CPU time over {@code seconds}
 */
public record SinkReport(String api, int nodeId, String groups, double seconds, long delivered, long lost,
                         long duplicates, long unchecked, int streams, long overflowedDeliveries,
                         long droppedDeliveries, double meanRate, long peakRate, List<Long> perSecond,
                         double cpuSeconds) {
}
