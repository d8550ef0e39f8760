package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.support.Fuzz;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes {@link KeyFileParser}: valid key files (one or two keys, comments, blank lines, tabs, CRLF), mutated at
 * the byte level (bits flipped, ids and digits changed, lines cut, doubled or spliced with another file) or replaced
 * by garbage, read into lines as {@link ClusterKeys#load} does (ISO-8859-1). The parser must return keys or throw an
 * {@link IOException} whose message names the file and never repeats a key; nothing else, and no hang.
 * {@code -Dricochet.fuzz.inputs=N} sets the files (10^5 by default).
 */
class KeyFileParserFuzzTest {
    private static final long SEED = Fuzz.seed(0x4b455946494c45L);
    private static final int INPUTS = Fuzz.inputs(100_000);
    private static final String SOURCE = "/etc/ricochet/fuzz.keys";

    @Test
    void shouldReturnKeysOrAClearErrorOnEveryFile() {
        SplittableRandom rng = new SplittableRandom(SEED);
        byte[] previous = validFile(rng, new String[2]);
        int loaded = 0;
        int refused = 0;
        for (int i = 0; i < INPUTS; i++) {
            String[] keys = new String[2];
            byte[] valid = validFile(rng, keys);
            String what = "seed=" + SEED + " file #" + i;
            assertTrue(parse(valid, keys, what + " (valid)"), what + ": a valid file refused");
            int pick = rng.nextInt(10);
            byte[] file = pick == 0 ? Fuzz.garbage(rng, rng.nextInt(200)) : Fuzz.mutate(rng, valid, previous,
                    pick < 7 ? 1 : 4);
            if (parse(file, keys, what)) {
                loaded++;
            } else {
                refused++;
            }
            previous = valid;
        }
        assertTrue(loaded > INPUTS / 20 && refused > INPUTS / 5, loaded + " loaded, " + refused + " refused");
    }

    /** Whether {@code file} parsed; fails the test on any outcome but keys or a clear IOException. */
    private static boolean parse(byte[] file, String[] keys, String what) {
        try {
            ClusterKeys parsed = KeyFileParser.parse(lines(file), SOURCE);
            assertTrue(parsed.size() >= 1 && parsed.size() <= ClusterKeys.MAX_KEYS, what + ": " + parsed);
            return true;
        } catch (IOException e) {
            String message = e.getMessage();
            assertTrue(message != null && message.startsWith("key file " + SOURCE), what + ": " + message);
            for (String key : keys) {
                if (key != null) {
                    assertFalse(message.toLowerCase().contains(key.substring(0, 16)), what + " repeats a key: "
                            + message);
                }
            }
            return false;
        } catch (RuntimeException e) {
            throw new AssertionError(what + " file=" + HexFormat.of().formatHex(file), e);
        }
    }

    /** The lines of {@code file} as {@code Files.readAllLines(file, ISO_8859_1)} reads them. */
    private static List<String> lines(byte[] file) {
        try (BufferedReader reader = new BufferedReader(new StringReader(new String(file,
                StandardCharsets.ISO_8859_1)))) {
            return reader.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A valid key file of one or two keys; their hex goes into {@code keys}. */
    private static byte[] validFile(SplittableRandom rng, String[] keys) {
        StringBuilder text = new StringBuilder();
        String newline = rng.nextInt(5) == 0 ? "\r\n" : "\n";
        if (rng.nextBoolean()) {
            text.append("# cluster keys: the send key first").append(newline);
        }
        int count = 1 + rng.nextInt(2);
        int firstId = 1 + rng.nextInt(255);
        for (int k = 0; k < count; k++) {
            byte[] key = new byte[ClusterKeys.KEY_LENGTH];
            for (int b = 0; b < key.length; b++) {
                key[b] = (byte) rng.nextInt(256);
            }
            keys[k] = HexFormat.of().formatHex(key);
            int id = k == 0 ? firstId : firstId % 255 + 1;
            String hex = rng.nextInt(4) == 0 ? keys[k].toUpperCase() : keys[k];
            text.append(rng.nextBoolean() ? "" : "  ").append(id).append(rng.nextInt(4) == 0 ? "\t" : " ")
                    .append(hex).append(newline);
            if (rng.nextInt(4) == 0) {
                text.append(newline);
            }
        }
        return text.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
