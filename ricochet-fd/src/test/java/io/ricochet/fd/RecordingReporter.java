package io.ricochet.fd;

import io.ricochet.control.verdict.FailureReporter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records every verdict as a line such as {@code failed 3} or {@code detectorRecovered rack-a}, and every node
 * forgotten as {@code forget 3}.
 */
final class RecordingReporter implements FailureReporter {
    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void failed(int nodeId) {
        events.add("failed " + nodeId);
    }

    @Override
    public void recovered(int nodeId) {
        events.add("recovered " + nodeId);
    }

    @Override
    public void detectorFailed(String detectorId) {
        events.add("detectorFailed " + detectorId);
    }

    @Override
    public void detectorRecovered(String detectorId) {
        events.add("detectorRecovered " + detectorId);
    }

    @Override
    public void forget(int nodeId) {
        events.add("forget " + nodeId);
    }

    List<String> events() {
        return List.copyOf(events);
    }

    boolean has(String event) {
        return events.contains(event);
    }
}
