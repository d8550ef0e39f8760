package io.ricochet.control;

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
}
