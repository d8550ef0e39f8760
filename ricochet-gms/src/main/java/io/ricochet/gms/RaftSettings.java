package io.ricochet.gms;

/**
 * The Raft settings a GMS replica runs its partitions with.
 *
 * <p>{@code electionTimeoutMs}: a follower that hears nothing from its leader for a random time between this and
 * twice this starts an election (Ratis' {@code rpc.timeout.min/max}). It bounds how long a partition is without a
 * leader after its leader dies, and it must stay well above the pauses a busy host gives a replica (GC, a starved
 * core), or a live leader is deposed for nothing; 500 ms is a few times the worst pause seen on the 2-core test hosts.
 * {@code snapshotEvery}: a snapshot after this many log entries, after which the log before it is purged; a
 * snapshot holds one record per member of each group, so a restart replays at most this many entries on top of it.
 * {@code pendingRequests}: requests a partition hands its Raft leader at once, not yet committed and applied; the
 * leader takes exactly that many ({@code raft.server.write.element-limit}, whose default 4096 it is) and
 * {@link #PENDING_BYTES} of them, and the partition holds the rest back ({@link RaftWindow}), so that Ratis never
 * refuses a request for want of room.
 */
public record RaftSettings(int electionTimeoutMs, long snapshotEvery, int pendingRequests) {
    /** Requests a partition's leader holds uncommitted at once, by default (Ratis' own default). */
    public static final int DEFAULT_PENDING_REQUESTS = 4096;
    /**
     * Bytes of requests a partition's leader holds uncommitted at once ({@code raft.server.write.byte-limit}, its
     * default): far more than {@link #DEFAULT_PENDING_REQUESTS} requests take (a JOIN is a few dozen bytes), and
     * more than the largest one ({@link io.ricochet.control.codec.ControlCodec#MAX_FRAME_BYTES} and a header).
     */
    public static final int PENDING_BYTES = 64 << 20;
    /** The defaults: 500 ms election timeout, a snapshot every 10 000 entries, 4096 pending requests. */
    public static final RaftSettings DEFAULT = new RaftSettings(500, 10_000);

    /** With the default pending requests. */
    public RaftSettings(int electionTimeoutMs, long snapshotEvery) {
        this(electionTimeoutMs, snapshotEvery, DEFAULT_PENDING_REQUESTS);
    }

    public RaftSettings {
        if (electionTimeoutMs < 50 || electionTimeoutMs > 60_000) {
            throw new IllegalArgumentException("election timeout must be in 50..60000 ms, got " + electionTimeoutMs);
        }
        if (snapshotEvery < 100) {
            throw new IllegalArgumentException("snapshot interval must be at least 100 entries, got "
                    + snapshotEvery);
        }
        if (pendingRequests < 1 || pendingRequests > 1 << 20) {
            throw new IllegalArgumentException("pending requests must be in 1.." + (1 << 20) + ", got "
                    + pendingRequests);
        }
    }
}
