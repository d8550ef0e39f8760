package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.api.MessageId;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The payload format of a daemon's DATA packets: one message or a bundle, and every way a payload can be wrong. */
class BundleFormatTest {
    /** A bundle of {@code messages}, written here independently of the {@link Bundler}. */
    static byte[] bundle(byte[]... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(BundleFormat.BUNDLE);
        for (byte[] m : messages) {
            out.write(m.length >>> 8);
            out.write(m.length & 0xff);
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    static byte[] single(byte[] message) {
        byte[] payload = new byte[message.length + 1];
        payload[0] = BundleFormat.SINGLE;
        System.arraycopy(message, 0, payload, 1, message.length);
        return payload;
    }

    /** The messages of a payload, read at {@code offset} in a larger buffer so offsets are exercised. */
    static List<byte[]> messages(byte[] payload) {
        byte[] buffer = new byte[payload.length + 10];
        System.arraycopy(payload, 0, buffer, 7, payload.length);
        List<byte[]> out = new ArrayList<>();
        int count = BundleFormat.count(buffer, 7, payload.length);
        if (count == BundleFormat.MALFORMED) {
            return null;
        }
        List<Integer> indexes = new ArrayList<>();
        assertEquals(count, BundleFormat.forEach(buffer, 7, payload.length, (index, b, offset, length) -> {
            indexes.add(index);
            out.add(Arrays.copyOfRange(b, offset, offset + length));
        }));
        assertEquals(count, out.size());
        for (int i = 0; i < count; i++) {
            assertEquals(i, indexes.get(i));
        }
        return out;
    }

    @Test
    void shouldReadASingleMessageAsTheRestOfThePayload() {
        List<byte[]> got = messages(single(new byte[] {1, 2, 3}));
        assertEquals(1, got.size());
        assertArrayEquals(new byte[] {1, 2, 3}, got.get(0));
        assertArrayEquals(new byte[0], messages(single(new byte[0])).get(0), "an empty message");
        assertArrayEquals(new byte[] {1}, messages(single(new byte[] {1})).get(0), "its first byte is data");
    }

    @Test
    void shouldReadEveryMessageOfABundleInOrder() {
        byte[] big = new byte[300];
        Arrays.fill(big, (byte) 7);
        List<byte[]> got = messages(bundle(new byte[] {9}, new byte[0], big, new byte[] {4, 5}));
        assertEquals(4, got.size());
        assertArrayEquals(new byte[] {9}, got.get(0));
        assertArrayEquals(new byte[0], got.get(1));
        assertArrayEquals(big, got.get(2), "a length above 255 reads both bytes");
        assertArrayEquals(new byte[] {4, 5}, got.get(3));
        assertEquals(1, messages(bundle(new byte[] {1})).size(), "a bundle of one is valid");
    }

    @Test
    void shouldRefuseWhatIsNotInTheFormat() {
        assertEquals(null, messages(new byte[0]), "no kind");
        assertEquals(null, messages(new byte[] {2, 0, 0}), "unknown kind");
        assertEquals(null, messages(new byte[] {(byte) 0x80, 1}), "unknown kind, high bit");
        assertEquals(null, messages(new byte[] {BundleFormat.BUNDLE}), "an empty bundle");
        assertEquals(null, messages(new byte[] {BundleFormat.BUNDLE, 0}), "half a length");
        assertEquals(null, messages(new byte[] {BundleFormat.BUNDLE, 0, 3, 1, 2}), "a length past the end");
        assertEquals(null, messages(new byte[] {BundleFormat.BUNDLE, 0, 1, 1, 0}), "a trailing byte");
        assertEquals(null, messages(new byte[] {BundleFormat.BUNDLE, (byte) 0xff, (byte) 0xff, 1}),
                "a huge length");
        byte[] tooMany = bundle(new byte[MessageId.PER_DATAGRAM + 1][0]);
        assertEquals(null, messages(tooMany), "more messages than ids");
        byte[] most = bundle(new byte[MessageId.PER_DATAGRAM][0]);
        assertEquals(MessageId.PER_DATAGRAM, messages(most).size());
    }

    @Test
    void shouldNumberMessagesByDatagramAndIndex() {
        assertEquals(0, MessageId.of(0, 0));
        assertEquals(4096 * 7 + 3, MessageId.of(7, 3));
        assertEquals(7, MessageId.datagram(4096 * 7 + 3));
        assertEquals(3, MessageId.index(4096 * 7 + 3));
        assertEquals(true, MessageId.sameDatagram(MessageId.of(7, 0), MessageId.of(7, 4095)));
        assertEquals(false, MessageId.sameDatagram(MessageId.of(7, 0), MessageId.of(8, 0)));
    }
}
