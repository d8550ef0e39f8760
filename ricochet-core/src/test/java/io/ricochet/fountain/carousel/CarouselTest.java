package io.ricochet.fountain.carousel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A sender and receivers of the carousel, no network: receivers that start at different symbols and lose different
 * shares of them all rebuild the file and check its hash; other files' symbols are ignored; a file whose symbols
 * were altered is reported corrupt; bad parameters are refused with the reason.
 */
class CarouselTest {
    private static final long MAX = 1 << 24;

    private static byte[] randomFile(int length, long seed) {
        byte[] content = new byte[length];
        new SplittableRandom(seed).nextBytes(content);
        return content;
    }

    /** Offers symbols from {@code start} on, dropping each with probability {@code loss}; returns ids consumed. */
    private static long receive(CarouselSender sender, CarouselReceiver receiver, long start, double loss,
                                long seed) {
        SplittableRandom drops = new SplittableRandom(seed);
        for (long id = start; id < start + 100_000; id++) {
            if (drops.nextDouble() < loss) {
                continue;
            }
            CarouselReceiver.Outcome outcome = receiver.offer(sender.message(id));
            if (outcome == CarouselReceiver.Outcome.COMPLETE) {
                return id - start + 1;
            }
            assertEquals(CarouselReceiver.Outcome.TAKEN, outcome);
        }
        throw new AssertionError("not decoded after 100 000 symbols");
    }

    @Test
    void shouldDecodeFromAnyStartUnderAnyLossAndCheckTheHash() {
        byte[] content = randomFile(200_000, 1);
        CarouselSender sender = new CarouselSender(content, 1000, 0.03, 0.001, 42, MAX);
        assertEquals(200, sender.file().k());
        long[] starts = {0, 977, 123_456};
        double[] losses = {0.05, 0.1, 0.2};
        for (int i = 0; i < starts.length; i++) {
            CarouselReceiver receiver = new CarouselReceiver(MAX, null);
            long used = receive(sender, receiver, starts[i], losses[i], i);
            assertArrayEquals(content, receiver.content(), "receiver " + i);
            assertEquals(sender.file(), receiver.file());
            assertEquals(0, receiver.malformed());
            assertTrue(used >= 200, "at least k symbols are needed: " + used);
            assertEquals(CarouselReceiver.Outcome.COMPLETE, receiver.offer(sender.message(0)), "stays complete");
        }
    }

    @Test
    void shouldDecodeAFileShorterThanOneSymbol() {
        byte[] content = randomFile(17, 2);
        CarouselSender sender = new CarouselSender(content, 1000, 0.03, 0.001, 7, MAX);
        CarouselReceiver receiver = new CarouselReceiver(MAX, null);
        assertEquals(CarouselReceiver.Outcome.COMPLETE, receiver.offer(sender.message(5)));
        assertArrayEquals(content, receiver.content());
    }

    @Test
    void shouldKeepToTheFirstFileOrTheOneAskedFor() {
        CarouselSender a = new CarouselSender(randomFile(5_000, 3), 100, 0.03, 0.001, 1, MAX);
        CarouselSender b = new CarouselSender(randomFile(5_000, 4), 100, 0.03, 0.001, 1, MAX);
        CarouselReceiver firstSeen = new CarouselReceiver(MAX, null);
        CarouselReceiver wantsB = new CarouselReceiver(MAX, b.file().fileId());
        firstSeen.offer(a.message(0));
        assertEquals(CarouselReceiver.Outcome.OTHER_FILE, firstSeen.offer(b.message(0)));
        assertEquals(CarouselReceiver.Outcome.OTHER_FILE, wantsB.offer(a.message(0)));
        assertEquals(a.file(), firstSeen.file());
        receive(b, wantsB, 0, 0.1, 5);
        assertEquals(b.file(), wantsB.file());
        assertEquals(1, wantsB.otherFile());
    }

    @Test
    void shouldRefuseASymbolOfTheSameFileWithAnotherHeader() {
        byte[] content = randomFile(5_000, 6);
        CarouselSender sender = new CarouselSender(content, 100, 0.03, 0.001, 1, MAX);
        CarouselSender reseeded = new CarouselSender(content, 100, 0.03, 0.001, 2, MAX);
        CarouselReceiver receiver = new CarouselReceiver(MAX, null);
        receiver.offer(sender.message(0));
        assertEquals(CarouselReceiver.Outcome.MALFORMED, receiver.offer(reseeded.message(1)));
        assertTrue(receiver.lastProblem().contains("another header"), receiver.lastProblem());
        receive(sender, receiver, 1, 0, 7);
        assertArrayEquals(content, receiver.content());
    }

    @Test
    void shouldReportAFileWhoseSymbolsWereAlteredAsCorrupt() {
        CarouselSender sender = new CarouselSender(randomFile(5_000, 8), 100, 0.03, 0.001, 1, MAX);
        CarouselReceiver receiver = new CarouselReceiver(MAX, null);
        CarouselReceiver.Outcome outcome = CarouselReceiver.Outcome.TAKEN;
        for (long id = 0; outcome == CarouselReceiver.Outcome.TAKEN; id++) {
            byte[] m = sender.message(id);
            m[m.length - 1] ^= 1; // the last byte of every symbol flipped in transit
            outcome = receiver.offer(m);
        }
        assertEquals(CarouselReceiver.Outcome.CORRUPT, outcome);
        assertEquals(null, receiver.content());
    }

    @Test
    void shouldRefuseFilesAndParametersOutOfBoundsSayingWhy() {
        byte[] content = randomFile(5_000, 9);
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CarouselSender(content, 100, 0.03, 0.001, 1, 4_999)).getMessage()
                .contains("file length 5000 is not in 1..4999"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CarouselSender(new byte[0], 100, 0.03, 0.001, 1, MAX)).getMessage()
                .contains("file length 0"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CarouselSender(content, 0, 0.03, 0.001, 1, MAX)).getMessage().contains("symbol size 0"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CarouselSender(content, 100, 0, 0.001, 1, MAX)).getMessage().contains("c 0.0"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CarouselSender(content, 100, 0.03, 1, 1, MAX)).getMessage().contains("delta 1.0"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CarouselSender(randomFile(1 << 21, 1), 1, 0.03, 0.001, 1, 1 << 22)).getMessage()
                .contains("use larger symbols"));
        assertThrows(IllegalArgumentException.class, () -> new CarouselReceiver(0, null));
        assertThrows(IllegalArgumentException.class, () -> new CarouselReceiver((1L << 30) + 1, null));
    }

    @Test
    void shouldMakeTheSameMessagesForTheSameSeed() {
        byte[] content = randomFile(3_000, 10);
        CarouselSender one = new CarouselSender(content, 100, 0.03, 0.001, 11, MAX);
        CarouselSender two = new CarouselSender(content.clone(), 100, 0.03, 0.001, 11, MAX);
        for (long id = 0; id < 50; id++) {
            assertArrayEquals(one.message(id), two.message(id));
        }
    }
}
