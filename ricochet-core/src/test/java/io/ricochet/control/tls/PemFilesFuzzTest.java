package io.ricochet.control.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.support.Fuzz;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzes {@link PemFiles}: the certificate and private-key files {@code scripts/certs} makes, mutated (in their
 * text, and in the DER inside the base64, so the parsers behind the armour are reached) or replaced by garbage,
 * written to a file (the key file mode 0600) and read. Each read must return what was asked for or throw an
 * {@link IOException} with a one-line message, never another exception, and never name key material.
 * {@code -Dricochet.fuzz.inputs=N} sets the files per parser; the default is {@value #DEFAULT_INPUTS}, not 10^5:
 * each input is a file write plus a JDK certificate or key parse (a key tried as EC, RSA and Ed25519), 0.15 ms
 * alone and up to 0.8 ms on a loaded machine, where 30 000 keys took 16 s: 15 000 keep each test under 12 s.
 */
class PemFilesFuzzTest {
    private static final int DEFAULT_INPUTS = 15_000;
    private static final long SEED = Fuzz.seed(0x50454d46494c45L);
    private static final int INPUTS = Fuzz.inputs(DEFAULT_INPUTS);

    @TempDir
    static Path certs;
    @TempDir
    Path work;

    @BeforeAll
    static void makeCertificates() throws Exception {
        TestCertificates.make(certs, "daemon:node-7", "detector:rack-1");
    }

    @Test
    void shouldReadCertificatesOrSayWhatIsWrong() throws IOException {
        byte[][] valid = {Files.readAllBytes(certs.resolve("node-7.pem")), Files.readAllBytes(
                certs.resolve("rack-1.pem"))};
        Path file = work.resolve("cert.pem");
        int[] outcomes = fuzz(new SplittableRandom(SEED), valid, "CERTIFICATE", file, () -> {
            assertTrue(PemFiles.certificates(file).length > 0);
        });
        assertTrue(outcomes[0] > 0 && outcomes[1] > INPUTS / 10, outcomes[0] + " read, " + outcomes[1] + " refused");
    }

    @Test
    void shouldReadPrivateKeysOrSayWhatIsWrong() throws IOException {
        byte[][] valid = {Files.readAllBytes(certs.resolve("node-7.key")), Files.readAllBytes(
                certs.resolve("rack-1.key"))};
        Path file = work.resolve("private.key");
        Files.write(file, valid[0]);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        int[] outcomes = fuzz(new SplittableRandom(SEED + 1), valid, "PRIVATE KEY", file, () -> {
            assertTrue(PemFiles.privateKey(file) != null);
        });
        assertTrue(outcomes[0] > 0 && outcomes[1] > INPUTS / 10, outcomes[0] + " read, " + outcomes[1] + " refused");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void shouldQuoteNoControlCharacterNorALongLineOfABrokenCertificateFile() throws IOException {
        // Found by the fuzzing above: the JDK's "Illegal header" message quotes the file's line as it is.
        Path file = work.resolve("cert.pem");
        Files.writeString(file, "-----BEGIN CERTIFICATE-----\u001b[31m\u0007" + "A".repeat(10_000)
                + "\n-----END CERTIFICATE-----\n", java.nio.charset.StandardCharsets.ISO_8859_1);
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> PemFiles.certificates(file));
        assertTrue(e.getMessage().length() < 250 && e.getMessage().chars().noneMatch(Character::isISOControl),
                e.getMessage());
        assertEquals("a?[31mb?c" + "x".repeat(111) + "...",
                PemFiles.firstLine(new IOException("a\u001b[31mb\rc" + "x".repeat(500) + "\nthe second line")));
    }

    private interface Read {
        void run() throws IOException;
    }

    /** Feeds the mutated files to {@code read}; returns {read, refused}. */
    private static int[] fuzz(SplittableRandom rng, byte[][] valid, String label, Path file, Read read)
            throws IOException {
        int[] outcomes = new int[2];
        for (int i = 0; i < INPUTS; i++) {
            byte[] base = valid[rng.nextInt(valid.length)];
            byte[] other = valid[rng.nextInt(valid.length)];
            int pick = rng.nextInt(10);
            byte[] bytes = switch (pick) {
                case 0 -> Fuzz.garbage(rng, rng.nextInt(300));
                case 1, 2, 3, 4 -> Fuzz.mutate(rng, base, other, pick < 3 ? 1 : 3);
                default -> mutateDer(rng, base, other, label);
            };
            Files.write(file, bytes);   // keeps the key file's mode
            String what = "seed=" + SEED + " " + label + " #" + i;
            try {
                read.run();
                outcomes[0]++;
            } catch (IOException e) {
                String message = e.getMessage();
                assertTrue(message != null && !message.isBlank() && message.length() <= 300
                        && message.chars().noneMatch(Character::isISOControl), what + ": a clear line: " + message);
                assertTrue(!label.contains("KEY") || !message.contains("MI"), what + " shows the key: " + message);
                outcomes[1]++;
            } catch (RuntimeException e) {
                throw new AssertionError(what + " file=" + HexFormat.of().formatHex(bytes), e);
            }
        }
        return outcomes;
    }

    /** The PEM with the DER inside its first block mutated, then armoured again as base64. */
    private static byte[] mutateDer(SplittableRandom rng, byte[] pem, byte[] other, String label) {
        String text = new String(pem, java.nio.charset.StandardCharsets.US_ASCII);
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            return Fuzz.mutate(rng, pem, other);
        }
        byte[] der = Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
        byte[] mutated = Fuzz.mutate(rng, der, der, 1 + rng.nextInt(2));
        String armoured = begin + "\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(mutated)
                + "\n" + text.substring(to);
        return (text.substring(0, from) + armoured).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
