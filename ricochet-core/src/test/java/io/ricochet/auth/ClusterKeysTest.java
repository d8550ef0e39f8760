package io.ricochet.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClusterKeysTest {
    private static final String KEY_A = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    private static final String KEY_B = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

    @TempDir
    Path dir;

    private Path keyFile(String text, String mode) throws IOException {
        Path file = dir.resolve("keys");
        Files.writeString(file, text, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    private IOException refused(String text) throws IOException {
        Path file = keyFile(text, "rw-------");
        return assertThrows(IOException.class, () -> ClusterKeys.load(file));
    }

    @Test
    void shouldLoadOneKeyWithCommentsAndBlankLines() throws IOException {
        ClusterKeys keys = ClusterKeys.load(keyFile("# cluster keys\n\n  7 " + KEY_A + "  \n\t# end\n", "rw-------"));
        assertEquals(7, keys.sendKeyId());
        assertArrayEquals(new int[] {7}, keys.keyIds());
        assertArrayEquals(HexFormat.of().parseHex(KEY_A), keys.key(7));
        assertEquals(null, keys.key(8));
    }

    @Test
    void shouldSendWithTheFirstKeyAndAcceptBoth() throws IOException {
        ClusterKeys keys = ClusterKeys.load(keyFile("2\t" + KEY_B.toUpperCase() + "\n1 " + KEY_A + "\n", "r--------"));
        assertEquals(2, keys.sendKeyId());
        assertArrayEquals(new int[] {2, 1}, keys.keyIds());
        assertArrayEquals(HexFormat.of().parseHex(KEY_B), keys.key(2));
        assertArrayEquals(HexFormat.of().parseHex(KEY_A), keys.key(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rw-r--r--", "rw-r-----", "r--r-----", "rw----r--", "rw--w----", "rw------x"})
    void shouldRefuseAFileGroupOrOthersCanUse(String mode) throws IOException {
        Path file = keyFile("1 " + KEY_A + "\n", mode);
        IOException e = assertThrows(IOException.class, () -> ClusterKeys.load(file));
        assertTrue(e.getMessage().contains("chmod 600 " + file), e.getMessage());
    }

    @Test
    void shouldNameTheModeItRefuses() throws IOException {
        Path file = keyFile("1 " + KEY_A + "\n", "rw-r-----");
        IOException e = assertThrows(IOException.class, () -> ClusterKeys.load(file));
        assertTrue(e.getMessage().contains("0640"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rw-------", "r--------", "-w-------", "---------"})
    void shouldAcceptOwnerOnlyModes(String mode) throws IOException {
        // Root reads a file of mode 0000 too; other users would be refused by the operating system.
        Path file = keyFile("1 " + KEY_A + "\n", mode);
        if (Files.isReadable(file)) {
            assertEquals(1, ClusterKeys.load(file).sendKeyId());
        }
    }

    @Test
    void shouldRefuseAMissingFile() {
        Path file = dir.resolve("absent");
        IOException e = assertThrows(IOException.class, () -> ClusterKeys.load(file));
        assertTrue(e.getMessage().contains(file + " does not exist"), e.getMessage());
    }

    @Test
    void shouldGiveTheLineNumberOfAMalformedLine() throws IOException {
        assertMessage(refused("# keys\n1 " + KEY_A + "\n\n2\n"), "line 4:", "'ID HEX'");
        assertMessage(refused("1 " + KEY_A + " extra\n"), "line 1:", "'ID HEX'");
        assertMessage(refused("#\n0 " + KEY_A + "\n"), "line 2:", "from 1 to 255");
        assertMessage(refused("256 " + KEY_A + "\n"), "line 1:", "from 1 to 255");
        assertMessage(refused("-1 " + KEY_A + "\n"), "line 1:", "from 1 to 255");
        assertMessage(refused("x1 " + KEY_A + "\n"), "line 1:", "from 1 to 255");
        assertMessage(refused("\n\n1 " + KEY_A.substring(2) + "\n"), "line 3:", "64 hex digits");
        assertMessage(refused("1 " + KEY_A + "00\n"), "line 1:", "found 66 characters");
        assertMessage(refused("1 " + KEY_A.replace('e', 'g') + "\n"), "line 1:", "not a hex digit");
    }

    @Test
    void shouldNeverRepeatKeyMaterialInAMessage() throws IOException {
        String almost = KEY_A.substring(0, 63) + "z";
        IOException e = refused("1 " + almost + "\n");
        assertFalse(e.getMessage().contains(almost.substring(0, 16)), e.getMessage());
    }

    @Test
    void shouldRefuseADuplicateId() throws IOException {
        assertMessage(refused("3 " + KEY_A + "\n# next\n3 " + KEY_B + "\n"), "line 3:", "already used on line 1");
    }

    @Test
    void shouldRefuseNoKeyOrMoreThanTwo() throws IOException {
        assertMessage(refused("# nothing\n\n"), "has no key", "'ID HEX'");
        assertMessage(refused(""), "has no key", "'ID HEX'");
        assertMessage(refused("1 " + KEY_A + "\n2 " + KEY_B + "\n3 " + KEY_A + "\n"), "line 3:", "more than 2 keys");
    }

    @Test
    void shouldWriteAFileOfMode0600ThatLoadsBack() throws IOException {
        ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), 42);
        Path file = dir.resolve("cluster.keys");
        keys.write(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        ClusterKeys loaded = ClusterKeys.load(file);
        assertEquals(42, loaded.sendKeyId());
        assertArrayEquals(keys.key(42), loaded.key(42));
    }

    @Test
    void shouldRefuseToOverwriteAFile() throws IOException {
        Path file = keyFile("old", "rw-r--r--");
        IOException e = assertThrows(IOException.class, () -> ClusterKeys.generate(new SecureRandom(), 1).write(file));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
        assertEquals("old", Files.readString(file));
    }

    @Test
    void shouldGenerateDistinctKeysOfTheRightLength() {
        SecureRandom random = new SecureRandom();
        byte[] one = ClusterKeys.generate(random, 1).key(1);
        byte[] two = ClusterKeys.generate(random, 1).key(1);
        assertEquals(ClusterKeys.KEY_LENGTH, one.length);
        assertFalse(java.util.Arrays.equals(one, two));
        assertThrows(IllegalArgumentException.class, () -> ClusterKeys.generate(random, 0));
        assertThrows(IllegalArgumentException.class, () -> ClusterKeys.generate(random, 256));
    }

    @Test
    void shouldPrintIdsButNoKeyMaterial() throws IOException {
        ClusterKeys keys = ClusterKeys.load(keyFile("2 " + KEY_B + "\n1 " + KEY_A + "\n", "rw-------"));
        String text = keys.toString();
        assertTrue(text.contains("send=2"), text);
        for (byte[] key : new byte[][] {keys.key(1), keys.key(2)}) {
            String hex = HexFormat.of().formatHex(key);
            for (int i = 0; i + 8 <= hex.length(); i += 8) {
                assertFalse(text.toLowerCase().contains(hex.substring(i, i + 8)), text);
            }
        }
    }

    private static void assertMessage(IOException e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' missing from: " + e.getMessage());
        }
        assertFalse(e.getMessage().contains("\n"), "not one line: " + e.getMessage());
    }

    @Test
    void shouldFingerprintEachKeyAsTheFirst8BytesOfItsHmacOfTheLabel() throws Exception {
        ClusterKeys keys = ClusterKeys.load(keyFile("2 " + KEY_B + "\n1 " + KEY_A + "\n", "rw-------"));
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(HexFormat.of().parseHex(KEY_A), "HmacSHA256"));
        long expected = java.nio.ByteBuffer.wrap(mac.doFinal("ricochet key fingerprint"
                .getBytes(StandardCharsets.US_ASCII))).getLong();
        assertEquals(expected, keys.fingerprint(1));
        assertTrue(keys.fingerprint(1) != keys.fingerprint(2), "two keys, two fingerprints");
        assertThrows(IllegalArgumentException.class, () -> keys.fingerprint(3));
    }
}
