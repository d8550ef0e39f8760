package io.ricochet.auth;

import io.ricochet.engine.OriginSeals;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;

/**
 * Origin seals in an authenticated cluster: a data packet's seal is the trailer of the DATA datagram its origin
 * sent ({@link DatagramAuth}). A DATA frame is fully determined by (origin, group, seqno, payload): its source is
 * its origin and its other header fields are fixed. So {@link #verify} writes that frame again, puts the seal after
 * it, and checks the trailer as {@link DatagramAuth#open} checks a received datagram: a rebuilt packet passes only
 * if its bytes are the ones its origin sealed.
 *
 * <p>Every key holder can seal, so this protects a node from a member that rebuilds or relays the wrong bytes (a
 * bug, corrupted memory, a stale repair), not from a member that forges on purpose with the cluster key
 * (docs/design/security.md, threat model). Not thread-safe: one instance per engine thread; allocates nothing.
 */
final class DataSeals implements OriginSeals {
    private final DatagramAuth auth;
    private final byte[] frame = new byte[HeaderFlyweight.MAX_FRAME_LENGTH];
    private final DataFlyweight data = new DataFlyweight().wrap(frame, 0);

    DataSeals(ClusterKeys keys) {
        this.auth = new DatagramAuth(keys);
    }

    @Override
    public int length() {
        return DatagramAuth.TRAILER_LENGTH;
    }

    @Override
    public boolean verify(int origin, int group, long seqno, byte[] payload, int offset, int length, byte[] seal,
                          int sealOffset) {
        if (length < 0 || length > DataFlyweight.MAX_PAYLOAD || seqno < 0) {
            return false;
        }
        int frameLength = data.write(FrameType.DATA, origin, origin, group, seqno, payload, offset, length);
        return auth.isAuthentic(frame, 0, frameLength, seal, sealOffset);
    }

    @Override
    public String toString() {
        return "origin seals (" + DatagramAuth.TRAILER_LENGTH + " bytes)";
    }
}
