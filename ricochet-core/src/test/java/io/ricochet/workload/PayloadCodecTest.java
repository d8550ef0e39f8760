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
        byte[] payload = PayloadCodec.encode(3, 42, 1_000_000_007L, 1_700_000_000_123_456L, 9L, 1024);

        PayloadCodec.Header header = PayloadCodec.decode(payload, 3, 42, 9L);

        assertEquals(new PayloadCodec.Header(3, 42, 1_000_000_007L, 1_700_000_000_123_456L, 9L), header);
        assertEquals(1024, payload.length);
    }

    @Test
    void shouldAcceptAPayloadOfJustTheHeader() {
        byte[] payload = PayloadCodec.encode(-1, -7, 0, 0, 9L, PayloadCodec.HEADER_LENGTH);

        assertEquals(-7, PayloadCodec.decode(payload, -1, -7, 9L).group());
    }

    @Test
    void shouldBeAPureFunctionOfItsArguments() {
        assertArrayEquals(PayloadCodec.encode(1, 2, 3, 4, 9L, 100), PayloadCodec.encode(1, 2, 3, 4, 9L, 100));
        assertTrue(!Arrays.equals(PayloadCodec.encode(1, 2, 3, 4, 9L, 100),
                PayloadCodec.encode(1, 2, 4, 4, 9L, 100)));
    }

    @Test
    void shouldCatchEveryFlippedByte() {
        byte[] good = PayloadCodec.encode(5, 6, 7, 8, 9L, 77);
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x10;
            int at = i;
            assertThrows(CorruptPayloadException.class, () -> PayloadCodec.decode(bad, 5, 6, 9L), "byte " + at);
        }
    }

    @Test
    void shouldSayWhereThePatternBreaks() {
        byte[] bad = PayloadCodec.encode(5, 6, 7, 8, 9L, 200);
        bad[150] ^= 1;

        CorruptPayloadException e = assertThrows(CorruptPayloadException.class,
                () -> PayloadCodec.decode(bad, 5, 6, 9L));

        assertEquals("pattern mismatch at byte 150 of 200", e.getMessage());
    }

    @Test
    void shouldRefuseAPayloadDeliveredUnderAnotherStream() {
        byte[] payload = PayloadCodec.encode(5, 6, 7, 8, 9L, 64);

        CorruptPayloadException e = assertThrows(CorruptPayloadException.class,
                () -> PayloadCodec.decode(payload, 5, 9, 9L));

        assertTrue(e.getMessage().contains("delivered as (origin 5, group 9)"), e.getMessage());
    }

    @Test
    void shouldRefuseTruncatedAndPaddedPayloads() {
        byte[] payload = PayloadCodec.encode(5, 6, 7, 8, 9L, 64);

        for (int length : new int[] {20, 63, 65}) {
            byte[] cut = Arrays.copyOf(payload, length);
            assertThrows(CorruptPayloadException.class, () -> PayloadCodec.decode(cut, 5, 6, 9L), "length " + length);
        }
    }

    @Test
    void shouldRefuseAPayloadOfAnotherRun() {
        byte[] payload = PayloadCodec.encode(5, 6, 7, 8, 9L, 64);

        CorruptPayloadException e = assertThrows(CorruptPayloadException.class,
                () -> PayloadCodec.decode(payload, 5, 6, 10L));

        assertEquals("stale: sent in run 9, not in this run 10", e.getMessage());
    }

    @Test
    void shouldRefuseToEncodeLessThanTheHeader() {
        assertThrows(IllegalArgumentException.class,
                () -> PayloadCodec.encode(1, 1, 1, 1, 9L, PayloadCodec.HEADER_LENGTH - 1));
    }
}
