package io.ricochet.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PayloadCodecTest {

    @Test
    void shouldDecodeWhatItEncoded() {
        byte[] payload = PayloadCodec.encode(3, 42, 1_000_000_007L, 1_700_000_000_123_456L, 1024);

        PayloadCodec.Header header = PayloadCodec.decode(payload, 3, 42);

        assertEquals(new PayloadCodec.Header(3, 42, 1_000_000_007L, 1_700_000_000_123_456L), header);
        assertEquals(1024, payload.length);
    }

    @Test
    void shouldAcceptAPayloadOfJustTheHeader() {
        byte[] payload = PayloadCodec.encode(-1, -7, 0, 0, PayloadCodec.HEADER_LENGTH);

        assertEquals(-7, PayloadCodec.decode(payload, -1, -7).group());
    }

    @Test
    void shouldBeAPureFunctionOfItsArguments() {
        assertArrayEquals(PayloadCodec.encode(1, 2, 3, 4, 100), PayloadCodec.encode(1, 2, 3, 4, 100));
        assertTrue(!Arrays.equals(PayloadCodec.encode(1, 2, 3, 4, 100), PayloadCodec.encode(1, 2, 4, 4, 100)));
    }

    @Test
    void shouldCatchEveryFlippedByte() {
        byte[] good = PayloadCodec.encode(5, 6, 7, 8, 77);
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x10;
            int at = i;
            assertThrows(CorruptPayloadException.class, () -> PayloadCodec.decode(bad, 5, 6), "byte " + at);
        }
    }

    @Test
    void shouldSayWhereThePatternBreaks() {
        byte[] bad = PayloadCodec.encode(5, 6, 7, 8, 200);
        bad[150] ^= 1;

        CorruptPayloadException e = assertThrows(CorruptPayloadException.class, () -> PayloadCodec.decode(bad, 5, 6));

        assertEquals("pattern mismatch at byte 150 of 200", e.getMessage());
    }

    @Test
    void shouldRefuseAPayloadDeliveredUnderAnotherStream() {
        byte[] payload = PayloadCodec.encode(5, 6, 7, 8, 64);

        CorruptPayloadException e = assertThrows(CorruptPayloadException.class,
                () -> PayloadCodec.decode(payload, 5, 9));

        assertTrue(e.getMessage().contains("delivered as (origin 5, group 9)"), e.getMessage());
    }

    @Test
    void shouldRefuseTruncatedAndPaddedPayloads() {
        byte[] payload = PayloadCodec.encode(5, 6, 7, 8, 64);

        assertThrows(CorruptPayloadException.class, () -> PayloadCodec.decode(Arrays.copyOf(payload, 20), 5, 6));
        assertThrows(CorruptPayloadException.class, () -> PayloadCodec.decode(Arrays.copyOf(payload, 63), 5, 6));
        assertThrows(CorruptPayloadException.class, () -> PayloadCodec.decode(Arrays.copyOf(payload, 65), 5, 6));
    }

    @Test
    void shouldRefuseToEncodeLessThanTheHeader() {
        assertThrows(IllegalArgumentException.class, () -> PayloadCodec.encode(1, 1, 1, 1, PayloadCodec.HEADER_LENGTH - 1));
    }
}
