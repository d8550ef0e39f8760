package io.ricochet.bench.compare;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildMembersTest {
    /** The repository's root, from the bench module's folder or the root itself. */
    private static Path root() {
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("scripts")) ? here : here.getParent();
    }

    @Test
    void shouldRunRicochetMembersWithTheDaemonUnitsCollectorAndJGroupsWithTheDefault() throws Exception {
        List<String> ricochet = ChildMembers.command(List.of(
                MemberPlanTest.plan(SystemKind.RICOCHET, 1, 4, List.of(7), 1000, 0, 1)));
        List<String> jgroups = ChildMembers.command(List.of(
                MemberPlanTest.plan(SystemKind.JGROUPS, 1, 4, List.of(7), 1000, 0, 1)));
        assertTrue(ricochet.containsAll(ChildMembers.RICOCHET_JVM_OPTIONS), ricochet.toString());
        assertFalse(jgroups.contains("-XX:+UseZGC"), jgroups.toString());
        assertTrue(ricochet.contains("-Xmx512m") && jgroups.contains("-Xmx512m"), "the same heap for both");
        String unit = Files.readString(root().resolve("scripts/systemd/ricochetd.service"));
        String javaOpts = unit.lines().filter(l -> l.startsWith("Environment=\"JAVA_OPTS=")).findFirst().orElseThrow();
        for (String option : ChildMembers.RICOCHET_JVM_OPTIONS) {
            assertTrue(javaOpts.contains(option), option + " is not the unit's: " + javaOpts);
        }
    }
}
