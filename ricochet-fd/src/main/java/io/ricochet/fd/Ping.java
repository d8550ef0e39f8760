package io.ricochet.fd;

/**
 * One heartbeat the driver must send now: {@link FailureDetector#onTick} returns one per member and round.
 *
 * @param member the member's id; its HEARTBEAT_ACK must carry this id as its source
 * @param address what the driver attached to the member, typically its unicast address
 * @param sequence the round's sequence number, to put in the HEARTBEAT
 * @param <A> the type of the address
 */
public record Ping<A>(int member, A address, long sequence) {
}
