package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.engine.OriginSeals;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A packet's seal is the trailer its origin's DATA datagram carried; nothing but those exact bytes verifies. */
class DataSealsTest {
    private static final int ORIGIN = 5;
    private static final int GROUP = 9;
    private static final long SEQNO = 1234;

    private final ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), 3);
    private final byte[] payload = new byte[1024];
    private final byte[] seal;

    DataSealsTest() {
        new SplittableRandom(7).nextBytes(payload);
        byte[] datagram = new byte[DatagramAuth.MAX_DATAGRAM_LENGTH];
        int frame = new DataFlyweight().wrap(datagram, 0)
                .write(FrameType.DATA, ORIGIN, ORIGIN, GROUP, SEQNO, payload, 0, payload.length);
        int length = new DatagramAuth(keys).seal(datagram, 0, frame);
        seal = Arrays.copyOfRange(datagram, frame, length);
    }

    @Test
    void shouldVerifyThePacketItsOriginSealed() {
        OriginSeals seals = Authentication.with(keys).newOriginSeals();
        assertEquals(DatagramAuth.TRAILER_LENGTH, seals.length());
        assertTrue(seals.verify(ORIGIN, GROUP, SEQNO, payload, 0, payload.length, seal, 0));
        byte[] shifted = new byte[payload.length + 3];
        System.arraycopy(payload, 0, shifted, 3, payload.length);
        byte[] sealAt = new byte[seal.length + 2];
        System.arraycopy(seal, 0, sealAt, 2, seal.length);
        assertTrue(seals.verify(ORIGIN, GROUP, SEQNO, shifted, 3, payload.length, sealAt, 2), "offsets");
    }

    @Test
    void shouldVerifyASealAsOftenAsAskedWithoutSpendingItsCounter() {
        OriginSeals seals = Authentication.with(keys).newOriginSeals();
        for (int i = 0; i < 3; i++) {
            assertTrue(seals.verify(ORIGIN, GROUP, SEQNO, payload, 0, payload.length, seal, 0), "check " + i);
        }
    }

    @Test
    void shouldRefuseAnyOtherBytesIdOrKey() {
        OriginSeals seals = Authentication.with(keys).newOriginSeals();
        for (int i = 0; i < payload.length; i += 97) {
            byte[] flipped = payload.clone();
            flipped[i] ^= 0x10;
            assertFalse(seals.verify(ORIGIN, GROUP, SEQNO, flipped, 0, flipped.length, seal, 0), "byte " + i);
        }
        assertFalse(seals.verify(ORIGIN + 1, GROUP, SEQNO, payload, 0, payload.length, seal, 0), "origin");
        assertFalse(seals.verify(ORIGIN, GROUP + 1, SEQNO, payload, 0, payload.length, seal, 0), "group");
        assertFalse(seals.verify(ORIGIN, GROUP, SEQNO + 1, payload, 0, payload.length, seal, 0), "seqno");
        assertFalse(seals.verify(ORIGIN, GROUP, SEQNO, payload, 0, payload.length - 1, seal, 0), "truncated");
        for (int i = 0; i < seal.length; i++) {
            byte[] bad = seal.clone();
            bad[i] ^= 1;
            assertFalse(seals.verify(ORIGIN, GROUP, SEQNO, payload, 0, payload.length, bad, 0), "seal byte " + i);
        }
        OriginSeals otherKey = Authentication.with(ClusterKeys.generate(new SecureRandom(), 3)).newOriginSeals();
        assertFalse(otherKey.verify(ORIGIN, GROUP, SEQNO, payload, 0, payload.length, seal, 0), "another key");
    }

    @Test
    void shouldNeverThrowForAbsurdFields() {
        OriginSeals seals = Authentication.with(keys).newOriginSeals();
        assertFalse(seals.verify(ORIGIN, GROUP, -1, payload, 0, payload.length, seal, 0));
        assertFalse(seals.verify(ORIGIN, GROUP, SEQNO, new byte[2000], 0, 2000, seal, 0));
        assertFalse(seals.verify(ORIGIN, GROUP, SEQNO, payload, 0, -1, seal, 0));
    }

    @Test
    void shouldHaveNoSealsWhenInsecure() {
        OriginSeals none = Authentication.insecure().newOriginSeals();
        assertEquals(0, none.length());
        assertTrue(none.verify(ORIGIN, GROUP, SEQNO, payload, 0, payload.length, seal, 0));
    }
}
