package io.ricochet.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.setting.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The settings table of docs/operations.md, section 1.4, is generated from the daemon's declarations
 * ({@link DaemonKeys}): every key, its default, its range, who must agree and its description, so the docs cannot
 * drift from the daemon. After changing a declaration, regenerate it with
 * {@code mvn -o -pl ricochet-core test -Dtest=SettingsTableTest -Dsettings.write=true}.
 */
class SettingsTableTest {
    private static final Path DOC = Path.of("..", "docs", "operations.md");
    private static final String BEGIN = "<!-- settings table: generated from io.ricochet.daemon.DaemonKeys by "
            + "SettingsTableTest (-Dsettings.write=true) -->";
    private static final String END = "<!-- end of the generated settings table -->";

    @Test
    void shouldHaveTheTableTheDeclarationsGive() throws IOException {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, DOC + " marks its settings table with '" + BEGIN + "' and '" + END + "'");
        String generated = table();
        String current = doc.substring(begin + BEGIN.length() + 1, end);
        if (Boolean.getBoolean("settings.write") && !generated.equals(current)) {
            Files.writeString(DOC, doc.substring(0, begin + BEGIN.length() + 1) + generated + doc.substring(end));
            return;
        }
        assertEquals(generated, current, "the settings table of " + DOC + " is not what DaemonKeys declares: "
                + "regenerate it with -Dtest=SettingsTableTest -Dsettings.write=true");
    }

    @Test
    void shouldWriteACellForEachKindOfDefault() {
        assertEquals("| `node-id` | (required) | 0 or more | this node | This node's id, unique in the cluster. "
                + "What its HEARTBEAT_ACKs carry, and what a failure detector's --members lists. |",
                row(DaemonKeys.BY_NAME.get("node-id")));
        assertTrue(row(DaemonKeys.BY_NAME.get("tls-key")).startsWith("| `tls-key` | none |  | this node | "));
        assertTrue(row(DaemonKeys.BY_NAME.get("protocol")).contains("ricochet\\|srm"), "a | in a cell is escaped");
    }

    @Test
    void shouldDeclareEveryNumbersDefaultInItsRange() {
        for (Setting s : DaemonKeys.ALL) {
            boolean number = s.type() == Setting.Type.INTEGER || s.type() == Setting.Type.MILLIS
                    || s.type() == Setting.Type.DECIMAL;
            if (number && !s.required()) {
                assertTrue(s.allows(Double.parseDouble(s.defaultText())), s.name() + " = " + s.defaultText()
                        + " is outside its range " + s.rangeText());
            }
        }
    }

    /** The table, a line per key in the declarations' order. */
    static String table() {
        StringBuilder out = new StringBuilder("| Key | Default | Range | Who must agree | Meaning |\n"
                + "|---|---|---|---|---|\n");
        DaemonKeys.ALL.forEach(s -> out.append(row(s)).append('\n'));
        return out.toString();
    }

    private static String row(Setting s) {
        String meaning = sentence(s.doc()) + (s.details().isEmpty() ? "" : " " + sentence(s.details()));
        return "| `" + s.name() + "` | " + defaultCell(s) + " | " + s.rangeText() + " | " + s.agreement().words()
                + " | " + meaning.replace("|", "\\|") + " |";
    }

    private static String defaultCell(Setting s) {
        if (s.required()) {
            return "(required)";
        }
        return s.defaultText().isEmpty() ? "none" : "`" + s.defaultText() + "`";
    }

    private static String sentence(String text) {
        return text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1) + ".";
    }
}
