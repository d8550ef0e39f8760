package io.ricochet.fd;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The failure detector's layering (ArchUnit, over its main classes): the detector core is sans-I/O, so its verdicts
 * are a pure function of heartbeat history and time; the servers use the shared command-line support, not the
 * {@code ricochet} tool's commands.
 */
class FdLayeringTest {
    private static final JavaClasses FD = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ricochet.fd");

    @Test
    void shouldKeepTheDetectorCoreFreeOfClocksSocketsAndThreads() {
        noClasses().that().haveSimpleNameStartingWith("FailureDetector").or().haveSimpleNameStartingWith("Ping")
                .or().haveSimpleNameStartingWith("AckResult").or().haveSimpleNameStartingWith("TransitionListener")
                .or().haveSimpleNameStartingWith("HeartbeatHistory").or().haveSimpleNameStartingWith("Phi")
                .or().haveSimpleNameStartingWith("RoundLog")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "java.net..", "java.nio.channels..",
                        "java.util.concurrent..")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(Instant.class, "now").orShould().callMethod(Thread.class, "sleep", long.class)
                .orShould().callConstructor(Random.class)
                .because("suspicion is a pure function of heartbeat history and the time passed in")
                .check(FD);
    }

    @Test
    void shouldNotUseTheCommandLineTool() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.ricochet.cli..")
                .because("shared picocli helpers live in io.ricochet.support")
                .check(FD);
    }
}
