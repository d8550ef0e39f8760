package io.ricochet.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The bench's place among the modules (ArchUnit, over the main classes of all four): the bench may use everything,
 * and nothing of the daemon, the GMS or the failure detector uses the bench, so each ships without it.
 */
class BenchLayeringTest {
    private static final JavaClasses ALL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ricochet");

    @Test
    void shouldSeeTheMainClassesOfEveryModule() {
        // Without them the rules below would hold vacuously.
        for (String name : new String[] {"io.ricochet.daemon.Daemon", "io.ricochet.gms.GmsMain",
            "io.ricochet.fd.FdMain", "io.ricochet.bench.BenchMain"}) {
            assertTrue(ALL.contain(name), name + " was not imported");
        }
    }

    @Test
    void shouldKeepTheBenchOutOfTheOtherModules() {
        noClasses().that().resideOutsideOfPackage("io.ricochet.bench..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.bench..")
                .because("the bench measures the daemon, the GMS and the detector from outside; they ship without it")
                .check(ALL);
    }

    @Test
    void shouldKeepTheGmsAndTheDetectorApart() {
        noClasses().that().resideInAPackage("io.ricochet.gms..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.fd..")
                .because("the GMS and the failure detector talk over the control protocol only")
                .check(ALL);
        noClasses().that().resideInAPackage("io.ricochet.fd..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.gms..")
                .because("the GMS and the failure detector talk over the control protocol only")
                .check(ALL);
    }
}
