package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PayloadTest {
    @Test
    void aPayloadCarriesSenderCounterAndSendTimeAtItsSize() {
        byte[] bytes = Payload.encode(7, 123_456_789_012L, -42L, 1024);
        assertEquals(1024, bytes.length);
        assertEquals(new Payload.Stamp(7, 123_456_789_012L, -42L), Payload.decode(bytes));
    }

    @Test
    void aPayloadIsReadAtAnOffsetInsideALargerBuffer() {
        byte[] payload = Payload.encode(3, 9, 11, 64);
        byte[] buffer = new byte[100];
        System.arraycopy(payload, 0, buffer, 20, 64);
        assertEquals(new Payload.Stamp(3, 9, 11), Payload.decode(buffer, 20, 64));
    }

    @Test
    void aMessageSmallerThanTheHeaderIsRefusedWithItsReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Payload.encode(1, 1, 1, Payload.HEADER_LENGTH - 1));
        assertTrue(e.getMessage().contains("below the harness's 24-byte header"), e.getMessage());
    }

    @Test
    void bytesThatAreNotAHarnessPayloadDecodeToNull() {
        byte[] good = Payload.encode(1, 2, 3, 32);
        byte[] badMagic = good.clone();
        badMagic[0] ^= 1;
        assertNull(Payload.decode(badMagic));
        assertNull(Payload.decode(new byte[Payload.HEADER_LENGTH - 1]));
        assertNull(Payload.decode(null));
        assertNull(Payload.decode(good, 10, 32));
        assertNull(Payload.decode(good, -1, 24));
    }
}
