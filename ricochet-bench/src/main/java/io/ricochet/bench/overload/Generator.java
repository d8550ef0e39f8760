package io.ricochet.bench.overload;

import io.ricochet.bench.load.LoadReport;
import io.ricochet.bench.load.RateSchedule;
import java.util.List;

/**
 * One load generator as the timeline sees it: when it started, the schedule it followed, and its packets sent over
 * time.
 *
 * @param nodeId           its node id
 * @param startEpochMillis when its first batch went out
 * @param schedule         the rate schedule it followed
 * @param progress         [epoch ms, packets sent so far] readings in time order
 */
public record Generator(int nodeId, long startEpochMillis, RateSchedule schedule, List<long[]> progress) {

    public static Generator of(LoadReport report) {
        return new Generator(report.nodeId(), report.startEpochMillis(), RateSchedule.parse(report.schedule()),
                report.progress());
    }

    /** When phase {@code index} began, in epoch milliseconds. */
    double phaseStart(int index) {
        return startEpochMillis + schedule.phaseStartNanos(index) / 1e6;
    }

    /** When sending ended by the schedule. */
    double end() {
        return startEpochMillis + schedule.totalNanos() / 1e6;
    }
}
