package io.ricochet.fd;

/**
 * The send times of the last {@code capacity} rounds of one detector run, by sequence number. An ack is taken as an
 * answer to this run only if it echoes the send time of the round it names: an ack for the same sequence number
 * from an earlier run (before a restart) carries another time. Acks for rounds older than the log cannot be
 * checked and are refused.
 */
final class RoundLog {
    private final long[] sendTimesNs;
    private long newest;

    /** @param capacity how many of the latest rounds can be checked, {@code >= 1} */
    RoundLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.sendTimesNs = new long[capacity];
    }

    /** Records round {@code sequence}, which must be the one after the newest recorded. */
    void record(long sequence, long sendTimeNs) {
        if (sequence != newest + 1) {
            throw new IllegalArgumentException("round " + sequence + " does not follow round " + newest);
        }
        newest = sequence;
        sendTimesNs[slot(sequence)] = sendTimeNs;
    }

    /** The newest recorded round; 0 before the first. */
    long newest() {
        return newest;
    }

    /** Whether round {@code sequence} was recorded and is still in the log. */
    boolean remembers(long sequence) {
        return sequence >= 1 && sequence <= newest && newest - sequence < sendTimesNs.length;
    }

    /** Whether round {@code sequence} is in the log and was sent at {@code sendTimeNs}. */
    boolean sentAt(long sequence, long sendTimeNs) {
        return remembers(sequence) && sendTimesNs[slot(sequence)] == sendTimeNs;
    }

    private int slot(long sequence) {
        return (int) (sequence % sendTimesNs.length);
    }
}
