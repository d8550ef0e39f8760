package io.ricochet.auth;

import io.ricochet.wire.Bytes;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import io.ricochet.wire.PacketIdFlyweight;
import java.util.Objects;

/**
 * Authenticates datagrams with the cluster's keys: {@link #seal} appends a trailer after a frame, {@link #open}
 * checks it before anything else reads the frame, and refuses a datagram it has taken before.
 *
 * <pre>
 * datagram = frame | key id (1 byte) | counter (8 bytes, big-endian) | tag (16 bytes)
 * tag      = PMAC-AES-256(K[key id], frame | key id | counter),  K = HMAC-SHA256(key, label), once per key
 * tag      = PMAC-AES-256(K[key id], frame | receiver | key id | counter)   for a type bound to its receiver
 * </pre>
 *
 * The MAC ({@link DatagramMac}) covers the frame and the trailer's first {@link #MAC_TRAILER_LENGTH} bytes, contiguous
 * in a datagram. For the frame types sent only to one process ({@link FrameType#isBoundToReceiver}) it also covers the
 * receiver's id (4 bytes, big-endian; not sent): the sender names it when sealing and the receiver puts its own, so a
 * NAK, REPAIR, STABLE or HEARTBEAT replayed to another process fails there as unauthentic. The frame is sealed with the
 * keys' send key ({@link ClusterKeys#sendKeyId}); any key of {@link ClusterKeys} opens. The counter comes from the
 * process's {@link DatagramClock}: strictly increasing, its high bits the send time. After the tag verifies, the {@link
 * ReplayFilter} shared by the process's guards refuses a stale counter or one already taken from the same source and
 * frame type (for DATA, the same source and group: {@link ReplayFilter#checkStream}; docs/design/security.md,
 * "Replays"). PMAC needs no nonce, so any number of senders can share a key. The algorithm was chosen by measurement
 * (security.md, "Cost"). Tags are compared in constant time. After construction no call allocates (the filter allocates
 * a window the first time a source sends a frame type), unless the guard encrypts: then about 128 bytes per encrypted
 * datagram ({@link DatagramCipher}).
 *
 * <p>Not thread-safe: one instance per thread (each holds its own AES cipher and PMAC scratch buffers); the clock and
 * the replay filter it shares with other instances are thread-safe.
 */
public final class DatagramAuth implements FrameGuard {
    /** Bytes of the tag: a whole PMAC-AES tag (one AES block). */
    public static final int TAG_LENGTH = DatagramMac.TAG_LENGTH;
    /** Bytes of the counter. */
    public static final int COUNTER_LENGTH = 8;
    /** Trailer bytes the MAC covers after the frame: the key id and the counter. */
    public static final int MAC_TRAILER_LENGTH = 1 + COUNTER_LENGTH;
    /** Bytes {@link #seal} appends: the key id, the counter, then the tag. */
    public static final int TRAILER_LENGTH = MAC_TRAILER_LENGTH + TAG_LENGTH;
    /** Largest datagram: a frame of {@link HeaderFlyweight#MAX_FRAME_LENGTH} bytes and its trailer. */
    public static final int MAX_DATAGRAM_LENGTH = HeaderFlyweight.MAX_FRAME_LENGTH + TRAILER_LENGTH;

    /** {@link #open}: shorter than a frame header and a trailer. */
    public static final int TOO_SHORT = -1;
    /** {@link #open}: the key id is not one of the cluster's keys. */
    public static final int UNKNOWN_KEY = -2;
    /** {@link #open}: the tag does not match (forged, corrupted, or sealed with another key of the same id). */
    public static final int BAD_TAG = -3;
    /** {@link #open}: longer than {@link #MAX_DATAGRAM_LENGTH}; refused before any MAC work. */
    public static final int TOO_LONG = -4;
    /** {@link #open}: authentic, but its counter was already taken from that source and frame type, or is too old. */
    public static final int REPLAYED = -5;
    /** {@link #open}: authentic, but sent further from this host's clock than the max clock skew allows. */
    public static final int STALE = -6;

    /** The MAC's name, for logs and stats. */
    static final String ALGORITHM = "PMAC-AES-256";

    private static final int COUNTER_OFFSET = 1;
    private static final int TAG_OFFSET = MAC_TRAILER_LENGTH;

    private final int sendKeyId;
    private final DatagramMac sendMac;
    private final DatagramMac[] macById = new DatagramMac[ClusterKeys.MAX_ID + 1];
    /** Null unless this guard encrypts ({@link DatagramCipher}). */
    private final DatagramCipher[] cipherById;
    private final DatagramCipher sendCipher;
    private final byte[] tag = new byte[TAG_LENGTH];
    /** The receiver's id and the key id and counter, for the MAC of a frame bound to its receiver. */
    private final byte[] bound = new byte[4 + MAC_TRAILER_LENGTH];
    private final int self;
    private final DatagramClock clock;
    private final ReplayFilter replays;

    /** A guard with the process's clock and a replay filter of its own (default skew): for tests and benchmarks. */
    public DatagramAuth(ClusterKeys keys) {
        this(keys, DatagramClock.system(),
                new ReplayFilter(ReplayFilter.DEFAULT_MAX_CLOCK_SKEW_MS, System::currentTimeMillis));
    }

    /**
     * @param clock   the counters this guard seals with: the process's one clock for the source id it sends as
     * @param replays the filter of every guard of the process that opens datagrams
     */
    public DatagramAuth(ClusterKeys keys, DatagramClock clock, ReplayFilter replays) {
        this(keys, clock, replays, NO_DESTINATION);
    }

    /**
     * @param clock   the counters this guard seals with: the process's one clock for the source id it sends as
     * @param replays the filter of every guard of the process that opens datagrams
     * @param self    the id of this guard's process: frames bound to their receiver open only if sealed for it
     */
    public DatagramAuth(ClusterKeys keys, DatagramClock clock, ReplayFilter replays, int self) {
        this(keys, clock, replays, self, false);
    }

    /**
     * @param encrypt whether frames are also encrypted ({@link DatagramCipher}): every process of the cluster must
     *                agree, or each refuses the other's datagrams as unauthentic
     */
    public DatagramAuth(ClusterKeys keys, DatagramClock clock, ReplayFilter replays, int self, boolean encrypt) {
        this.self = self;
        cipherById = encrypt ? new DatagramCipher[ClusterKeys.MAX_ID + 1] : null;
        for (int id : keys.keyIds()) {
            macById[id] = new DatagramMac(keys.key(id));
            if (encrypt) {
                cipherById[id] = new DatagramCipher(keys.key(id));
            }
        }
        sendCipher = encrypt ? cipherById[keys.sendKeyId()] : null;
        sendKeyId = keys.sendKeyId();
        sendMac = macById[sendKeyId];
        this.clock = Objects.requireNonNull(clock, "clock");
        this.replays = Objects.requireNonNull(replays, "replays");
    }

    /**
     * Appends the trailer to the frame in {@code buf[offset, offset + frameLength)} and returns the datagram's
     * length, {@code frameLength + TRAILER_LENGTH}. The caller leaves {@link #TRAILER_LENGTH} bytes of room after the
     * frame: a buffer of {@link #MAX_DATAGRAM_LENGTH} bytes holds any frame.
     *
     * @throws IllegalArgumentException if {@code frameLength} is outside [header length, MAX_FRAME_LENGTH]
     * @throws IndexOutOfBoundsException if the datagram does not fit in {@code buf}
     */
    @Override
    public int seal(byte[] buf, int offset, int frameLength, int destination) {
        if (frameLength < HeaderFlyweight.HEADER_LENGTH || frameLength > HeaderFlyweight.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("frame length " + frameLength + " is outside "
                    + HeaderFlyweight.HEADER_LENGTH + ".." + HeaderFlyweight.MAX_FRAME_LENGTH);
        }
        Objects.checkFromIndexSize(offset, frameLength + TRAILER_LENGTH, buf.length);
        int trailer = offset + frameLength;
        buf[trailer] = (byte) sendKeyId;
        Bytes.putLong(buf, trailer + COUNTER_OFFSET, clock.next());
        macOf(sendMac, buf, offset, frameLength, buf, trailer, destination, buf, trailer + TAG_OFFSET);
        if (sendCipher != null && DatagramCipher.encrypts(buf[offset + HeaderFlyweight.TYPE_OFFSET])) {
            sendCipher.apply(buf, offset, frameLength, buf, trailer + TAG_OFFSET);
        }
        return frameLength + TRAILER_LENGTH;
    }

    /**
     * Checks the datagram in {@code buf[offset, offset + datagramLength)}: returns the length of the frame it
     * carries (from {@code offset}, trailer stripped) if its key id is known, its tag verifies and its counter is
     * fresh and new for its source and frame type (then recorded); else {@link #TOO_SHORT}, {@link #TOO_LONG},
     * {@link #UNKNOWN_KEY}, {@link #BAD_TAG}, {@link #STALE} or {@link #REPLAYED}. Never throws for any bytes.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code buf}
     */
    @Override
    public int open(byte[] buf, int offset, int datagramLength) {
        Objects.checkFromIndexSize(offset, datagramLength, buf.length);
        int frameLength = datagramLength - TRAILER_LENGTH;
        if (frameLength < HeaderFlyweight.HEADER_LENGTH) {
            return TOO_SHORT;
        }
        if (datagramLength > MAX_DATAGRAM_LENGTH) {
            return TOO_LONG;
        }
        int trailer = offset + frameLength;
        if (cipherById != null && DatagramCipher.encrypts(buf[offset + HeaderFlyweight.TYPE_OFFSET])) {
            // Decrypted before the tag is checked (the tag is over the plaintext); a forgery decrypts to bytes the
            // tag then refuses, and nothing reads them.
            DatagramCipher cipher = cipherById[buf[trailer] & 0xFF];
            if (cipher == null) {
                return UNKNOWN_KEY;
            }
            cipher.apply(buf, offset, frameLength, buf, trailer + TAG_OFFSET);
        }
        int verdict = verify(buf, offset, frameLength, buf, trailer);
        if (verdict < 0) {
            return verdict;
        }
        // Only now, with the tag verified, may the frame's bytes create state.
        int source = Bytes.getInt(buf, offset + HeaderFlyweight.SOURCE_OFFSET);
        int type = buf[offset + HeaderFlyweight.TYPE_OFFSET] & 0xFF;
        long counter = Bytes.getLong(buf, trailer + COUNTER_OFFSET);
        int replay;
        if (type == FrameType.DATA && frameLength >= PacketIdFlyweight.ID_END) {
            int group = Bytes.getInt(buf, offset + PacketIdFlyweight.GROUP_OFFSET);
            replay = replays.checkStream(source, type, group, counter);
        } else {
            replay = replays.check(source, type, counter);
        }
        return replay < 0 ? replay : frameLength;
    }

    /**
     * Whether {@code trailer[trailerOffset, + TRAILER_LENGTH)} is a valid trailer of the frame in
     * {@code frame[frameOffset, + frameLength)}, with no replay check and nothing recorded: for a frame rebuilt and
     * checked against a stored seal ({@link DataSeals}), whose counter the genuine datagram may still bring.
     */
    boolean isAuthentic(byte[] frame, int frameOffset, int frameLength, byte[] trailer, int trailerOffset) {
        return verify(frame, frameOffset, frameLength, trailer, trailerOffset) == 0;
    }

    /**
     * Whether {@code trailer[trailerOffset, + TRAILER_LENGTH)} is a valid trailer of the frame in
     * {@code frame[frameOffset, + frameLength)}: 0, or {@link #UNKNOWN_KEY} or {@link #BAD_TAG}. No replay check.
     */
    private int verify(byte[] frame, int frameOffset, int frameLength, byte[] trailer, int trailerOffset) {
        DatagramMac mac = macById[trailer[trailerOffset] & 0xFF];
        if (mac == null) {
            return UNKNOWN_KEY;
        }
        macOf(mac, frame, frameOffset, frameLength, trailer, trailerOffset, self, tag, 0);
        int diff = 0;
        for (int i = 0; i < TAG_LENGTH; i++) {
            diff |= tag[i] ^ trailer[trailerOffset + TAG_OFFSET + i];
        }
        return diff == 0 ? 0 : BAD_TAG;
    }

    /** Writes the tag of the frame and trailer (and the receiver's id, if the frame's type is bound to it). */
    private void macOf(DatagramMac mac, byte[] frame, int frameOffset, int frameLength, byte[] trailer,
                       int trailerOffset, int receiver, byte[] out, int outOffset) {
        if (!FrameType.isBoundToReceiver(frame[frameOffset + HeaderFlyweight.TYPE_OFFSET])) {
            mac.tag(frame, frameOffset, frameLength, trailer, trailerOffset, out, outOffset);
            return;
        }
        Bytes.putInt(bound, 0, receiver);
        System.arraycopy(trailer, trailerOffset, bound, 4, MAC_TRAILER_LENGTH);
        mac.tag(frame, frameOffset, frameLength, bound, 0, bound.length, out, outOffset);
    }

    /** The counter of a sealed datagram's trailer, which starts at {@code trailerOffset}. */
    public static long counter(byte[] trailer, int trailerOffset) {
        return Bytes.getLong(trailer, trailerOffset + COUNTER_OFFSET);
    }

    /** A short name for a negative result of {@link #open}, for logs and counters. */
    public static String reason(int openResult) {
        switch (openResult) {
            case TOO_SHORT:
                return "too short";
            case TOO_LONG:
                return "too long";
            case UNKNOWN_KEY:
                return "unknown key id";
            case BAD_TAG:
                return "bad tag";
            case REPLAYED:
                return "replayed";
            case STALE:
                return "stale";
            default:
                return openResult >= 0 ? "ok" : "unknown reason " + openResult;
        }
    }

    @Override
    public String toString() {
        return "DatagramAuth[" + ALGORITHM + ", send key " + sendKeyId + ", replay window]";
    }
}
