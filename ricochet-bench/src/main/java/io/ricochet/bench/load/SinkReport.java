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
 * @param lost                 loss notices (first copies): datagrams the daemon gave up on, each covering its messages
 * @param duplicates           ids delivered twice or reported lost twice (must be 0)
 * @param both                 ids delivered and reported lost (must be 0)
 * @param unchecked            ids whose datagram seqno is too large to check for duplicates
 * @param streams              distinct (origin, group) streams seen
 * @param overflowedDeliveries deliveries the daemon dropped because this client read too slowly (OVERFLOW totals)
 * @param namedDrops           of the packets sent, those the daemon named in DROPPED runs: dropped for this client,
 *                             and said which (the promise counts them as reported)
 * @param droppedDeliveries    deliveries this client dropped (its queue; 0 with a callback)
 * @param meanRate             delivered / seconds
 * @param peakRate             the most deliveries in one one-second interval
 * @param perSecond            deliveries in each one-second interval after the joins
 * @param lostPerSecond        loss notices in each of those intervals
 * @param cpuSeconds           this process's CPU time over {@code seconds} and the grace
 * @param promise              the delivery promise checked against the generators' reports; null if not asked
 *                             for or not possible
 * @param graceSeconds         how long the check waited after the stop for the last packets to be resolved
 * @param promiseError         why the check could not run, or null
 * @param sampleMillis         the sampling interval of {@code samples}
 * @param samples              the readings taken every {@code sampleMillis}, from the joins to the end of the grace
 * @param samplesTruncated     whether {@code samples} stopped early (its bound was reached)
 */
public record SinkReport(String api, int nodeId, String groups, double seconds, long delivered, long lost,
                         long duplicates, long both, long unchecked, int streams, long overflowedDeliveries,
                         long namedDrops, long droppedDeliveries, double meanRate, long peakRate, List<Long> perSecond,
                         List<Long> lostPerSecond, double cpuSeconds, PromiseTally promise, double graceSeconds,
                         String promiseError, int sampleMillis, List<SinkSample> samples, boolean samplesTruncated) {
}
