package io.ricochet.control.message;

/**
 * GMS to daemon or detector, first on every session a replica accepts while it leads the partition: this replica
 * serves partition {@code partition} of {@code partitions} as the Raft leader of {@code term} (u64, carried in a
 * {@code long}). A client sends nothing before it; a client that expected another partition or count closes.
 */
public record Serving(int partition, int partitions, long term) implements ControlMessage {
    public Serving {
        Fields.requireU16(partition, "partition");
        Fields.requireU16(partitions, "partitions");
        if (partitions < 1 || partition >= partitions) {
            throw new IllegalArgumentException("partition " + partition + " of " + partitions + " does not exist");
        }
    }

    @Override
    public int type() {
        return MessageType.SERVING;
    }
}
