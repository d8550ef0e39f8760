package io.ricochet.engine;

/**
 * The engine's counters: a stable, enumerated public API. Tests and benchmarks assert on them; ids never change
 * meaning once released.
 */
public enum RicochetCounter {
    DATA_SENT(1, "data packets multicast by this node"),
    DATA_RECEIVED(2, "data packets received (first copies)"),
    DUPLICATES(3, "data, retransmitted or recovered copies of packets already delivered or given up"),
    DELIVERED(4, "packets delivered to the application (direct + recovered)"),
    REPAIRS_BUILT(5, "repair packets built (one XOR image, possibly sent to several targets)"),
    REPAIRS_SENT(6, "repair packets sent (one per target)"),
    REPAIRS_RECEIVED(7, "repair packets received"),
    REPAIRS_USELESS(8, "received repairs with no missing packet"),
    REPAIRS_UNUSABLE(9, "received repairs that name a packet this node had but no longer caches"),
    REPAIRS_BUFFERED(10, "repairs missing two or more packets kept for later use"),
    UNUSABLE_REPAIR_EVICTIONS(11, "buffered repairs evicted to stay within the bound"),
    LOSSES_DETECTED(12, "lost packets discovered (sequence gap or named in a repair)"),
    RECOVERED_BY_XOR(13, "lost packets recovered by LEC (one repair, or two combined)"),
    RECOVERED_BY_COMBINING(14, "of RECOVERED_BY_XOR, recovered by XOR-ing two buffered repairs"),
    RECOVERED_BY_NAK(15, "lost packets recovered by a retransmission"),
    LATE_ARRIVALS(16, "packets discovered missing that then arrived as data"),
    UNRECOVERED(17, "lost packets given up and reported lost to the application"),
    NAKS_SENT(18, "NAKs sent"),
    NAKS_RECEIVED(19, "NAKs received"),
    RETRANSMITS_SENT(20, "retransmissions sent in answer to NAKs"),
    GONE_SENT(21, "NAKs answered 'gone': the packet had left the retransmit buffer"),
    GONE_RECEIVED(22, "'gone' answers received"),
    BIN_XORS(23, "two-input XORs done in repair bins (a repair of r packets takes r - 1; section 4.2.5)"),
    RECOVERY_XORS(24, "payload XORs done to recover packets"),
    DATA_CACHE_EVICTIONS(25, "received payloads evicted from the bounded cache kept for XOR recovery"),
    RETRANSMIT_BUFFER_EVICTIONS(26, "sent payloads evicted from the bounded retransmit buffer"),
    LOSS_TABLE_FULL(27, "losses given up at once because the pending-loss table was full"),
    INVALID_PACKETS(28, "frames rejected by the validator (malformed)"),
    NON_MEMBER(29, "frames for a group this node is not a member of"),
    OUT_OF_WINDOW(30, "packets too far ahead of or behind a stream's receive window"),
    RX_BUFFER_RANDOM_DROPS(31, "packets dropped at random from the driver's full receive buffer"),
    RETRANSMITS_RECEIVED(32, "retransmissions received"),
    SESSIONS_SENT(33, "idle-stream announcements of the highest seqno sent (NAK layer)"),
    SESSIONS_RECEIVED(34, "idle-stream announcements received"),
    NAKS_RATE_LIMITED(35, "NAKs not sent because the node's NAK rate limit was reached (the attempt is used up)"),
    SRM_REQUESTS_SENT(100, "SRM: repair requests multicast by this node"),
    SRM_REQUESTS_RECEIVED(101, "SRM: repair requests received from other members"),
    SRM_REQUESTS_SUPPRESSED(102, "SRM: request timers backed off on hearing another member's request"),
    SRM_REQUESTS_HELD_DOWN(103, "SRM: requests ignored because a repair of the packet was just sent or heard"),
    SRM_REPAIRS_SENT(104, "SRM: repairs multicast by this node (its own packets or cached ones)"),
    SRM_REPAIRS_RECEIVED(105, "SRM: repairs received"),
    SRM_REPAIRS_SUPPRESSED(106, "SRM: scheduled repairs cancelled on hearing another member's repair"),
    SRM_REPAIR_TABLE_FULL(107, "SRM: requests or repairs not tracked because the repair table was full"),
    SRM_REPAIRS_UNAVAILABLE(108, "SRM: requests for a packet this node had but no longer holds"),
    SRM_SESSIONS_SENT(109, "SRM: session messages multicast by this node"),
    SRM_SESSIONS_RECEIVED(110, "SRM: session messages received"),
    SRM_LOSSES_FROM_SESSIONS(111, "SRM: of LOSSES_DETECTED, losses revealed by a session message"),
    SRM_LOSSES_FROM_REQUESTS(112, "SRM: of LOSSES_DETECTED, losses revealed by another member's request"),
    FEC_REPAIRS_SENT(120, "sender-based FEC repairs multicast (c per block)"),
    FEC_REPAIRS_RECEIVED(121, "sender-based FEC repairs received"),
    FEC_RECOVERED(122, "lost packets rebuilt from sender-based FEC repairs"),
    FEC_BLOCKS_SENT(123, "FEC blocks a sender closed and sent repairs for (full or flushed)"),
    FEC_BLOCKS_FLUSHED(124, "of FEC_BLOCKS_SENT, partial blocks closed by the flush timeout"),
    FEC_BLOCKS_DECODED(125, "FEC blocks from which at least one missing packet was rebuilt"),
    FEC_BLOCKS_UNRECOVERABLE(126, "FEC blocks whose last repair arrived with more packets missing than repairs held"),
    FEC_BLOCK_EVICTIONS(127, "FEC blocks waiting for packets evicted, with their repairs, to stay within the bound"),
    FEC_ENCODE_MULADDS(128, "GF(256) payload multiply-adds done to build FEC repairs (c per data packet sent)"),
    FEC_DECODE_MULADDS(129, "GF(256) payload multiply-adds done to decode FEC blocks (e k for e erasures)"),
    PBCAST_DIGESTS_SENT(140, "pbcast gossip digest frames sent (one per target and frame)"),
    PBCAST_REQUESTS_SENT(141, "pbcast solicitations (retransmission requests) sent to a gossiper"),
    PBCAST_RETRANSMITS_SENT(142, "pbcast retransmissions sent by unicast to a requester"),
    PBCAST_IPMC_RETRANSMITS(143, "pbcast retransmissions multicast to the group (Pbcast-ipmc, -grb, -local)"),
    PBCAST_GC_EXPIRED(144, "pbcast buffered messages garbage collected after stable-threshold rounds"),
    PBCAST_DIGESTS_RECEIVED(145, "pbcast gossip digest frames received"),
    PBCAST_REQUESTS_RECEIVED(146, "pbcast solicitations received"),
    PBCAST_REQUESTS_STALE(147, "pbcast solicitations not answered: they name an earlier gossip round"),
    PBCAST_RETRANSMIT_LIMITED(148, "pbcast solicitations not answered: limit-retrans reached this round"),
    PBCAST_REQUESTS_NOT_BUFFERED(149, "pbcast solicitations or mcast requests for a message no longer buffered"),
    PBCAST_REQUEST_LIMIT_HIT(150, "pbcast digests whose missing messages were cut short by limit-requests"),
    PBCAST_GRB_MULTICASTS(151, "of PBCAST_IPMC_RETRANSMITS, those decided by the gossip retransmit bit"),
    PBCAST_INFOS_SENT(152, "pbcast info messages sent to a neighbour (Pbcast-local)"),
    PBCAST_INFOS_RECEIVED(153, "pbcast info messages received (Pbcast-local)"),
    PBCAST_MCASTS_SENT(154, "pbcast mcast requests sent to a gossiper (Pbcast-local)"),
    PBCAST_MCASTS_RECEIVED(155, "pbcast mcast requests received (Pbcast-local)"),
    PBCAST_BUFFER_EVICTIONS(156, "pbcast buffered messages evicted early because the message buffer was full"),
    PBCAST_ROUNDS(157, "pbcast gossip rounds run"),
    PBCAST_HELD_BACK(158, "pbcast messages held back for FIFO order behind a missing one");

    private final int id;
    private final String description;

    RicochetCounter(int id, String description) {
        this.id = id;
        this.description = description;
    }

    /** Stable numeric id. */
    public int id() {
        return id;
    }

    public String description() {
        return description;
    }
}
