package io.ricochet.workload;

/**
 * One packet that broke exactly-once delivery, as reported in the first few of each kind.
 *
 * @param origin   the node that sent the packet
 * @param group    its group
 * @param seqno    its sequence number in (origin, group)
 * @param receiver the node where it went wrong
 * @param detail   what went wrong, for corrupt payloads; empty otherwise
 */
public record Violation(int origin, int group, long seqno, int receiver, String detail) {
    public Violation {
        detail = detail == null ? "" : detail;
    }
}
