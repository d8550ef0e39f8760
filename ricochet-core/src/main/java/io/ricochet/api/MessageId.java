package io.ricochet.api;

/**
 * The id the local API gives each application message (docs/api.md, "Message ids"): the sending daemon packs
 * messages into datagrams, the protocol engine's packets, and a message's id is its datagram's sequence number in
 * (origin, group) times {@value #PER_DATAGRAM}, plus its index in the datagram (0 for a datagram of one message).
 * A LOST notice names a datagram by the id of its index 0, and covers every message of it.
 */
public final class MessageId {
    /** The most messages one datagram carries; ids of one datagram are {@code datagram * PER_DATAGRAM + index}. */
    public static final int PER_DATAGRAM = 4096;

    private MessageId() {
    }

    /** The id of message {@code index} of datagram {@code seqno}. */
    public static long of(long seqno, int index) {
        if (seqno < 0 || seqno > Long.MAX_VALUE / PER_DATAGRAM || index < 0 || index >= PER_DATAGRAM) {
            throw new IllegalArgumentException("no message id for datagram " + seqno + ", index " + index);
        }
        return seqno * PER_DATAGRAM + index;
    }

    /** The sequence number of the datagram that carried message {@code id}. */
    public static long datagram(long id) {
        return id / PER_DATAGRAM;
    }

    /** The index of message {@code id} in its datagram. */
    public static int index(long id) {
        return (int) (id % PER_DATAGRAM);
    }

    /** Whether message {@code id} was in the datagram a LOST notice {@code lostId} names. */
    public static boolean sameDatagram(long lostId, long id) {
        return id >= 0 && lostId >= 0 && datagram(lostId) == datagram(id);
    }
}
