package io.ricochet.control.verdict;

/**
 * Where a failure detector sends its verdicts: every GMS partition (paper, section 4.2.4). Implementations must
 * not block the caller; delivery to a partition that is down is retried in the background.
 */
public interface FailureReporter {
    /** {@code nodeId} missed its heartbeats: the GMS pushes FAIL to every group it is in. */
    void failed(int nodeId);

    /** {@code nodeId} answers heartbeats again after a failure. */
    void recovered(int nodeId);

    /** The detector {@code detectorId} (a rack FD watched by the top-level chain) stopped answering. */
    void detectorFailed(String detectorId);

    /** The detector {@code detectorId} answers again. */
    void detectorRecovered(String detectorId);

    /**
     * {@code nodeId} is no longer watched by this detector (a watch list from the GMS took it off): whatever this
     * detector reported about it is dropped, and not sent again later (after a GMS failover, say), so that it can
     * never undo a newer verdict of the node's new detector. A verdict already sent stands. Does nothing by default,
     * for a reporter that keeps nothing to send again.
     */
    default void forget(int nodeId) {
    }
}
