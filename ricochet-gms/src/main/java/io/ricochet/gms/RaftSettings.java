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
 */
public record RaftSettings(int electionTimeoutMs, long snapshotEvery) {
    /** The defaults: 500 ms election timeout, a snapshot every 10 000 entries. */
    public static final RaftSettings DEFAULT = new RaftSettings(500, 10_000);

    public RaftSettings {
        if (electionTimeoutMs < 50 || electionTimeoutMs > 60_000) {
            throw new IllegalArgumentException("election timeout must be in 50..60000 ms, got " + electionTimeoutMs);
        }
        if (snapshotEvery < 100) {
            throw new IllegalArgumentException("snapshot interval must be at least 100 entries, got "
                    + snapshotEvery);
        }
    }
}
