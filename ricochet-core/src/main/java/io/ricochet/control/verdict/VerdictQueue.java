package io.ricochet.control.verdict;

import io.ricochet.control.message.ControlMessage;
import io.ricochet.control.message.DetectorFailed;
import io.ricochet.control.message.DetectorRecovered;
import io.ricochet.control.message.MessageType;
import io.ricochet.control.message.NodeFailed;
import io.ricochet.control.message.NodeRecovered;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The failure verdicts one GMS partition is to hold, level-triggered: per subject (a node for NODE_FAILED and
 * NODE_RECOVERED, a detector for DETECTOR_FAILED and DETECTOR_RECOVERED) the latest verdict reported, in report
 * order, for at most {@code capacity} subjects. A new report for a subject replaces its older verdict.
 *
 * <p>Verdicts are not taken out for having been written: a successful write proves nothing, since a Raft leader
 * that read a verdict and died before committing it has lost it. So every verdict is written again on every new
 * session with a leader ({@link #connectionLost} marks them all unwritten), and once per session
 * ({@link #takeUnwritten} hands out only those not yet written on it). The GMS treats repeats as no-ops (failing a
 * failed node or recovering a live one changes nothing); sending only the latest verdict per subject keeps a repeat
 * from undoing a newer one. A repeat could still undo a newer verdict of another detector: once this detector stops
 * watching a node (its rack moved), the node's verdict is taken out ({@link #forget}), uncounted, and never
 * repeated.
 *
 * <p>When full, a report for a new subject evicts the oldest subject's verdict. One never written on any session is
 * lost: counted in {@link #dropped}. One written before is counted in {@link #retired}: a leader read it and most
 * likely committed it, but it is no longer repeated after a failover. Single-threaded (the partition's event
 * loop); no I/O.
 */
final class VerdictQueue {
    /** The latest verdict of one subject and whether it was written on the current session. */
    static final class Entry {
        final ControlMessage verdict;
        boolean written;
        boolean everWritten;

        Entry(ControlMessage verdict) {
            this.verdict = verdict;
        }
    }

    /** Whom a verdict is about: a node id, or a detector id. */
    private record Subject(boolean detector, Object id) {
    }

    private final int capacity;
    /** Subject to its latest verdict, the least recently reported first. */
    private final Map<Subject, Entry> latest = new LinkedHashMap<>();
    private long dropped;
    private long retired;

    VerdictQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("verdict queue capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Holds {@code verdict} as its subject's latest, replacing the subject's older one (a repeat of the same verdict
     * keeps its written marks). Returns the evicted verdict if one never written had to go to make room, else null.
     */
    ControlMessage offer(ControlMessage verdict) {
        Subject subject = subjectOf(verdict);
        Entry older = latest.remove(subject);
        Entry entry = new Entry(verdict);
        if (older != null && older.verdict.equals(verdict)) {
            entry.written = older.written;
            entry.everWritten = older.everWritten;
        }
        ControlMessage lost = null;
        if (older == null && latest.size() == capacity) {
            Iterator<Entry> oldest = latest.values().iterator();
            Entry evicted = oldest.next();
            oldest.remove();
            if (evicted.everWritten) {
                retired++;
            } else {
                dropped++;
                lost = evicted.verdict;
            }
        }
        latest.put(subject, entry);
        return lost;
    }

    /**
     * Drops the verdict held about node {@code nodeId}, if any, written or not, without counting it: the node is
     * watched by another detector now, whose verdicts on it this one's must not undo. Returns whether one was held.
     */
    boolean forget(int nodeId) {
        return latest.remove(new Subject(false, nodeId)) != null;
    }

    /** The verdicts not yet written on this session, in report order, now marked written. */
    List<Entry> takeUnwritten() {
        List<Entry> batch = new ArrayList<>();
        for (Entry e : latest.values()) {
            if (!e.written) {
                e.written = true;
                e.everWritten = true;
                batch.add(e);
            }
        }
        return batch;
    }

    /** The session ended: every verdict is to be written again on the next one. */
    void connectionLost() {
        latest.values().forEach(e -> e.written = false);
    }

    /** Subjects whose latest verdict is held. */
    int size() {
        return latest.size();
    }

    /** Verdicts evicted before they were ever written: lost. */
    long dropped() {
        return dropped;
    }

    /** Verdicts evicted after they were written at least once: no longer repeated after a failover. */
    long retired() {
        return retired;
    }

    private static Subject subjectOf(ControlMessage verdict) {
        if (verdict instanceof NodeFailed v) {
            return new Subject(false, v.nodeId());
        } else if (verdict instanceof NodeRecovered v) {
            return new Subject(false, v.nodeId());
        } else if (verdict instanceof DetectorFailed v) {
            return new Subject(true, v.detectorId());
        } else if (verdict instanceof DetectorRecovered v) {
            return new Subject(true, v.detectorId());
        }
        throw new IllegalArgumentException(MessageType.name(verdict.type()) + " is not a failure verdict");
    }
}
