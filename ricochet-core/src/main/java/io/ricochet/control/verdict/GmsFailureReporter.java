package io.ricochet.control.verdict;

import io.netty.channel.EventLoopGroup;
import io.ricochet.control.link.ControlLink;
import io.ricochet.control.link.GmsAddresses;
import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import io.ricochet.control.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FailureReporter} that sends every verdict to every GMS partition over the control protocol (NODE_FAILED,
 * NODE_RECOVERED, DETECTOR_FAILED, DETECTOR_RECOVERED), to the partition's leader among its replicas. Each partition
 * has its own reconnecting session (following the replicas' redirects to the leader; 100 ms backoff doubling to
 * 5 s) and keeps, for every node and detector, the latest verdict reported about it (at most {@code queueCapacity}
 * of them). They are written again on every (re)connect to a leader, because a leader may die after reading a
 * verdict and before committing it; the GMS ignores repeats. When the queue is full the oldest subject's verdict is
 * evicted; one never sent is counted ({@link #dropped}) and logged once per outage. {@link #forget} drops a node's
 * verdict from every partition's queue (the node went to another detector). See {@link VerdictQueue}.
 *
 * <p>Connecting starts in the constructor. No method blocks except {@link #close}.
 */
public final class GmsFailureReporter implements FailureReporter, AutoCloseable {
    /** Subjects whose latest verdict is kept per partition. */
    public static final int DEFAULT_QUEUE_CAPACITY = 1024;

    private final List<VerdictSender> senders = new ArrayList<>();

    /**
     * Reports to {@code partitions} (per partition, in partition order, its replicas' addresses; see
     * {@link GmsAddresses}) on {@code group} (which the caller owns), default queue size, in plaintext.
     */
    public GmsFailureReporter(List<List<InetSocketAddress>> partitions, EventLoopGroup group) {
        this(partitions, group, DEFAULT_QUEUE_CAPACITY, TlsSettings.insecure());
    }

    /** Reports to {@code partitions} on {@code group} over links protected by {@code tls}, default queue size. */
    public GmsFailureReporter(List<List<InetSocketAddress>> partitions, EventLoopGroup group, TlsSettings tls) {
        this(partitions, group, DEFAULT_QUEUE_CAPACITY, tls);
    }

    /**
     * Reports to {@code partitions} on {@code group}, keeping the latest verdict of at most {@code queueCapacity}
     * subjects per partition, over links protected by {@code tls} (a detector's certificate: the GMS takes verdicts
     * only from role detector), or plaintext when it is insecure.
     */
    public GmsFailureReporter(List<List<InetSocketAddress>> partitions, EventLoopGroup group, int queueCapacity,
                              TlsSettings tls) {
        List<List<InetSocketAddress>> replicas = GmsAddresses.requireValid(partitions);
        for (int i = 0; i < replicas.size(); i++) {
            ControlLink link = new ControlLink("partition " + i + " (verdicts)", i, replicas.size(), replicas.get(i),
                    group, tls);
            senders.add(new VerdictSender(link, queueCapacity));
        }
        senders.forEach(VerdictSender::start);
    }

    @Override
    public void failed(int nodeId) {
        report(new NodeFailed(nodeId));
    }

    @Override
    public void recovered(int nodeId) {
        report(new NodeRecovered(nodeId));
    }

    @Override
    public void detectorFailed(String detectorId) {
        report(new DetectorFailed(detectorId));
    }

    @Override
    public void detectorRecovered(String detectorId) {
        report(new DetectorRecovered(detectorId));
    }

    /**
     * Drops the verdict held about {@code nodeId} from every partition's queue, on each partition's event loop after
     * the verdicts reported before this call: it is not written again on the next session with a leader.
     */
    @Override
    public void forget(int nodeId) {
        senders.forEach(s -> s.forget(nodeId));
    }

    /** Verdicts lost so far (evicted from a full queue before they were ever sent), summed over partitions. */
    public long dropped() {
        return senders.stream().mapToLong(VerdictSender::dropped).sum();
    }

    /** Closes every connection; the verdicts held are discarded. */
    @Override
    public void close() {
        senders.forEach(VerdictSender::close);
    }

    private void report(ControlMessage verdict) {
        senders.forEach(s -> s.report(verdict));
    }
}
