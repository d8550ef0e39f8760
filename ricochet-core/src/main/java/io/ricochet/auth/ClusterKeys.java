package io.ricochet.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The cluster's datagram keys: one or two 32-byte keys, each with an id from 1 to 255. The first key is the one
 * datagrams are sealed with; every key is accepted when opening one.
 *
 * <p>The key file is text, one key per line as {@code ID HEX}: the id in decimal, a space or tab, then the key as
 * 64 hex digits. Lines whose first non-blank character is {@code #} and blank lines are ignored. The file must
 * not grant any permission to group or others (mode 0600 or stricter), or {@link #load} refuses it.
 *
 * <pre>
 * # send key first
 * 2 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
 * 1 60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752
 * </pre>
 *
 * Rotation from key 1 to key 2, one step at a time on every host: add key 2 as the second line (every host now
 * accepts both), then move it to the first line (hosts send with key 2, still accept key 1), then remove key 1.
 *
 * <p>Immutable. {@link #toString} names the ids only, never key bytes.
 */
public final class ClusterKeys {
    /** Bytes in a key. */
    public static final int KEY_LENGTH = 32;
    /** Smallest and largest key id. */
    public static final int MIN_ID = 1;
    public static final int MAX_ID = 255;
    /** Keys in a file: the send key, and the one being rotated in or out. */
    public static final int MAX_KEYS = 2;

    private static final Set<PosixFilePermission> OWNER_READ_WRITE =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private static final byte[] FINGERPRINT_LABEL = "ricochet key fingerprint".getBytes(StandardCharsets.US_ASCII);

    private final int[] ids;
    private final byte[][] keys;

    /** Keys in order, the send key first; the arrays are copied. */
    ClusterKeys(int[] ids, byte[][] keys) {
        if (ids.length == 0 || ids.length > MAX_KEYS || ids.length != keys.length) {
            throw new IllegalArgumentException("1 to " + MAX_KEYS + " keys, one id each");
        }
        this.ids = ids.clone();
        this.keys = new byte[keys.length][];
        for (int i = 0; i < ids.length; i++) {
            checkId(ids[i]);
            if (keys[i].length != KEY_LENGTH) {
                throw new IllegalArgumentException("a key is " + KEY_LENGTH + " bytes");
            }
            for (int j = 0; j < i; j++) {
                if (ids[j] == ids[i]) {
                    throw new IllegalArgumentException("duplicate key id " + ids[i]);
                }
            }
            this.keys[i] = keys[i].clone();
        }
    }

    /** A single fresh key with id {@code id} drawn from {@code random}. */
    public static ClusterKeys generate(SecureRandom random, int id) {
        checkId(id);
        byte[] key = new byte[KEY_LENGTH];
        random.nextBytes(key);
        return new ClusterKeys(new int[] {id}, new byte[][] {key});
    }

    /**
     * Reads a key file (format in the class comment). Refuses, with a one-line message saying what to fix, a
     * missing file, one readable or writable by group or others, a malformed line, a duplicate id, and a file with
     * no key or more than {@value #MAX_KEYS}.
     */
    public static ClusterKeys load(Path file) throws IOException {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (NoSuchFileException e) {
            throw new IOException("key file " + file + " does not exist: check the path, or generate a key file");
        } catch (UnsupportedOperationException e) {
            throw new IOException("key file " + file + " is on a file system without POSIX permissions: move it to"
                    + " one that has them (mode 0600)");
        }
        if (!OWNER_READ_WRITE.containsAll(permissions)) {
            throw new IOException("key file " + file + " has mode " + mode(permissions)
                    + ", which lets group or others use it: chmod 600 " + file);
        }
        return KeyFileParser.parse(Files.readAllLines(file, StandardCharsets.ISO_8859_1), file.toString());
    }

    /**
     * Writes these keys to a new file of mode 0600 (created with that mode before any key byte is written). Refuses
     * an existing file, so a key file is never left with looser permissions than its keys need.
     */
    public void write(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE));
        } catch (FileAlreadyExistsException e) {
            throw new IOException("key file " + file + " already exists: remove it or choose another path");
        } catch (UnsupportedOperationException e) {
            throw new IOException("cannot create key file " + file + " with mode 0600: its file system has no POSIX"
                    + " permissions");
        }
        Files.write(file, text().getBytes(StandardCharsets.US_ASCII));
    }

    /** The id datagrams are sealed with: the first key's. */
    public int sendKeyId() {
        return ids[0];
    }

    /** Every accepted id, the send key's first. */
    public int[] keyIds() {
        return ids.clone();
    }

    public int size() {
        return ids.length;
    }

    /**
     * A short public fingerprint of the key with id {@code id}: the first 8 bytes of HMAC-SHA256(key, "ricochet key
     * fingerprint"), big-endian. It tells two keys apart without revealing anything about either (a PRF output under
     * the key, with a label no other derivation uses), so it can go to the GMS, which never holds the key.
     *
     * @throws IllegalArgumentException if this set holds no key with that id
     */
    public long fingerprint(int id) {
        byte[] key = key(id);
        if (key == null) {
            throw new IllegalArgumentException("no key with id " + id);
        }
        byte[] mac = new byte[HmacSha256.LENGTH];
        new HmacSha256(key).mac(FINGERPRINT_LABEL, 0, FINGERPRINT_LABEL.length, mac, 0);
        return java.nio.ByteBuffer.wrap(mac).getLong();
    }

    /** The key with id {@code id}, or null: the array itself, for this package's MACs to copy. */
    byte[] key(int id) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return keys[i];
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ClusterKeys[send=" + ids[0] + ", accepted=" + Arrays.toString(ids) + "]";
    }

    private String text() {
        StringBuilder out = new StringBuilder("# Ricochet cluster keys: ID HEX, the send key first\n");
        for (int i = 0; i < ids.length; i++) {
            out.append(ids[i]).append(' ');
            for (byte b : keys[i]) {
                out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static void checkId(int id) {
        if (id < MIN_ID || id > MAX_ID) {
            throw new IllegalArgumentException("key id " + id + " is outside " + MIN_ID + ".." + MAX_ID);
        }
    }

    private static String mode(Set<PosixFilePermission> permissions) {
        String rwx = PosixFilePermissions.toString(permissions);
        int mode = 0;
        for (int i = 0; i < rwx.length(); i++) {
            mode = mode << 1 | (rwx.charAt(i) == '-' ? 0 : 1);
        }
        return String.format("0%03o", mode);
    }
}
