package io.ricochet.auth;

import static io.ricochet.auth.ClusterKeys.KEY_LENGTH;
import static io.ricochet.auth.ClusterKeys.MAX_ID;
import static io.ricochet.auth.ClusterKeys.MAX_KEYS;
import static io.ricochet.auth.ClusterKeys.MIN_ID;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/** The lines of a key file, as {@link ClusterKeys}. */
final class KeyFileParser {
    private KeyFileParser() {
    }

    static ClusterKeys parse(List<String> lines, String source) throws IOException {
        int[] ids = new int[MAX_KEYS];
        int[] idLines = new int[MAX_KEYS];
        byte[][] keys = new byte[MAX_KEYS][];
        int count = 0;
        for (int n = 1; n <= lines.size(); n++) {
            String line = lines.get(n - 1).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = "key file " + source + " line " + n + ": ";
            String[] fields = line.split("[ \t]+");
            if (fields.length != 2) {
                throw new IOException(where + "expected 'ID HEX' (key id, then 64 hex digits), found "
                        + fields.length + " fields");
            }
            int id = parseId(fields[0], where);
            byte[] key = parseKey(fields[1], where);
            for (int i = 0; i < count; i++) {
                if (ids[i] == id) {
                    throw new IOException(where + "key id " + id + " is already used on line " + idLines[i]
                            + ": give each key its own id");
                }
            }
            if (count == MAX_KEYS) {
                throw new IOException(where + "more than " + MAX_KEYS + " keys: keep the send key first and at"
                        + " most one other (the key being rotated in or out)");
            }
            ids[count] = id;
            idLines[count] = n;
            keys[count++] = key;
        }
        if (count == 0) {
            throw new IOException("key file " + source + " has no key: add a line 'ID HEX' (id 1..255, 64 hex"
                    + " digits)");
        }
        return new ClusterKeys(Arrays.copyOf(ids, count), Arrays.copyOf(keys, count));
    }

    private static int parseId(String field, String where) throws IOException {
        if (!field.matches("[0-9]{1,3}") || Integer.parseInt(field) < MIN_ID || Integer.parseInt(field) > MAX_ID) {
            throw new IOException(where + "the key id must be a decimal number from " + MIN_ID + " to " + MAX_ID);
        }
        return Integer.parseInt(field);
    }

    /** The key's hex digits; the message never repeats them. */
    private static byte[] parseKey(String field, String where) throws IOException {
        if (field.length() != 2 * KEY_LENGTH) {
            throw new IOException(where + "the key must be " + 2 * KEY_LENGTH + " hex digits (" + KEY_LENGTH
                    + " bytes), found " + field.length() + " characters");
        }
        byte[] key = new byte[KEY_LENGTH];
        for (int i = 0; i < KEY_LENGTH; i++) {
            int high = Character.digit(field.charAt(2 * i), 16);
            int low = Character.digit(field.charAt(2 * i + 1), 16);
            if (high < 0 || low < 0) {
                throw new IOException(where + "the key has a character that is not a hex digit (0-9, a-f)");
            }
            key[i] = (byte) (high << 4 | low);
        }
        return key;
    }
}
