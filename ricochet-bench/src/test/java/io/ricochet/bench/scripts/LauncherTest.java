package io.ricochet.bench.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** scripts/lib/launcher.sh, the part the launchers (scripts/ricochet, ricochet-gms, ricochet-fd, bench) share. */
class LauncherTest {

    /**
     * A Maven that writes ANSI escapes whatever it is told (Debian's 3.8 with jansi 2 writes ESC[0m under -B and
     * style.color=never): the launcher passes its messages on as plain text, and stops with its exit status.
     */
    @Test
    void shouldPassOnTheBuildsMessagesWithoutAnsiEscapesAndStopWithItsStatus(@TempDir Path dir) throws Exception {
        Path mvn = Files.writeString(dir.resolve("mvn"), "#!/bin/sh\n"
                + "printf '\\033[0m\\033[0m[ERROR] \\033[1mcannot\\033[m compile\\n'\n"
                + "printf '\\033[0m\\033[0m' >&2\n"
                + "exit 3\n");
        assertTrue(mvn.toFile().setExecutable(true));

        ScriptRun run = ScriptRun.bash("set -euo pipefail; PATH=\"" + dir + ":$PATH\"; "
                + "source \"$root/scripts/lib/launcher.sh\"; launcher_build x \"" + dir.resolve("x.jar")
                + "\" ricochet-core; echo not reached");

        assertEquals(3, run.exitCode(), run.err());
        assertEquals("x: building " + dir.resolve("x.jar")
                + " (first run or sources changed; takes a minute) ...\n[ERROR] cannot compile\n", run.err());
        assertEquals("", run.out());
    }
}
