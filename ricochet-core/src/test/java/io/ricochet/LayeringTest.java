package io.ricochet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The layering of ricochet-core, stated as rules over its compiled main classes (ArchUnit). The protocol packages
 * are sans-I/O and deterministic; {@code wire} is the bottom layer and {@code engine} the shared protocol layer just
 * above it; the local API does not know the daemon; the control protocol does not know the engine, and its
 * messages and codec do not know its links; the two drivers of the engine (the daemon and the simulator) do not
 * know each other; and no two packages depend on each other.
 */
class LayeringTest {
    /** Agrona's primitive-keyed collections, which the packet path may use (its pom entry says why). */
    private static final String COLLECTIONS = "org.agrona.collections..";
    /** The type a setting is declared with, which every layer may use. */
    private static final String SETTING = "io.ricochet.setting..";
    /** The sans-I/O protocol code: engines and everything they are built from. */
    private static final String[] PROTOCOL = {"io.ricochet.engine..", "io.ricochet.lec..", "io.ricochet.nak..",
        "io.ricochet.lecnak..", "io.ricochet.srm..", "io.ricochet.fec..", "io.ricochet.pbcast..",
        "io.ricochet.ipmc..", "io.ricochet.qsm..", "io.ricochet.wire..", "io.ricochet.loss..",
        "io.ricochet.fountain.."};

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ricochet");

    private static void check(ArchRule rule) {
        rule.check(MAIN);
    }

    @Test
    void shouldKeepTheProtocolPackagesFreeOfNettySocketsAndThreads() {
        check(noClasses().that().resideInAnyPackage(PROTOCOL).should().dependOnClassesThat()
                .resideInAnyPackage("io.netty..", "java.net..", "java.nio.channels..", "java.util.concurrent..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .because("the engines are sans-I/O: the daemon and the simulator drive the same code"));
    }

    @Test
    void shouldKeepClocksAndUnseededRandomnessOutOfTheProtocolPackages() {
        check(noClasses().that().resideInAnyPackage(PROTOCOL).should()
                .callMethod(System.class, "nanoTime").orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(Instant.class, "now").orShould().callMethod(Thread.class, "sleep", long.class)
                .orShould().callMethod(Math.class, "random")
                .orShould().dependOnClassesThat().areAssignableTo(ThreadLocalRandom.class)
                .orShould().callConstructor(Random.class).orShould().callConstructor(Random.class, long.class)
                .because("time is an argument and every random choice comes from an injected, seeded generator"));
    }

    @Test
    void shouldKeepTheProtocolPackagesBelowEverythingElse() {
        check(classes().that().resideInAnyPackage(PROTOCOL).should().onlyDependOnClassesThat()
                .resideInAnyPackage(concat(PROTOCOL, "java..", COLLECTIONS, SETTING, ""))
                .because("protocol code knows no driver, API, membership service or command line (primitive-keyed "
                        + "collections and the declarations of its settings aside)"));
    }

    @Test
    void shouldKeepTheSettingDeclarationsAtTheBottom() {
        check(classes().that().resideInAPackage(SETTING).should().onlyDependOnClassesThat()
                .resideInAnyPackage(SETTING, "java..", "")
                .because("every layer declares its settings with it, the protocol packages included"));
    }

    @Test
    void shouldKeepWireAtTheBottom() {
        check(classes().that().resideInAPackage("io.ricochet.wire..").should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.ricochet.wire..", "java..", "")
                .because("the frame layouts depend on nothing of ours"));
    }

    @Test
    void shouldKeepTheRegionComputationPure() {
        check(classes().that().resideInAPackage("io.ricochet.region..").should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.ricochet.region..", "java.lang..", "java.util..", "")
                .because("the GMS replicas compute regions from the replicated state: no I/O, no clock, no threads"));
    }

    @Test
    void shouldKeepTheEngineToWhatEveryProtocolShares() {
        check(classes().that().resideInAPackage("io.ricochet.engine..").should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.ricochet.engine..", "io.ricochet.wire..", "java..", COLLECTIONS, "")
                .because("engine is the protocol-neutral interface; each protocol lives in its own package"));
    }

    @Test
    void shouldKeepTheApiIgnorantOfTheDaemon() {
        check(noClasses().that().resideInAnyPackage("io.ricochet.api..", "io.ricochet.client..").should()
                .dependOnClassesThat().resideInAPackage("io.ricochet.daemon..")
                .because("the local API is served by any LocalNode, and the client talks to it over TCP only"));
    }

    @Test
    void shouldKeepTheControlProtocolIgnorantOfTheEngineAndItsUsers() {
        check(noClasses().that().resideInAPackage("io.ricochet.control..").should().dependOnClassesThat()
                .resideInAnyPackage("io.ricochet.engine..", "io.ricochet.daemon..", "io.ricochet.cli..",
                        "io.ricochet.sim..")
                .because("the GMS speaks the control protocol without knowing the engine; the daemon translates"));
    }

    @Test
    void shouldKeepTheControlMessagesAndTheirBytesBelowTheLinks() {
        check(noClasses().that().resideInAnyPackage("io.ricochet.control.message..", "io.ricochet.control.codec..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.ricochet.control.link..", "io.ricochet.control.verdict..")
                .because("the GMS and every client share the messages and their bytes; the sessions build on them"));
        check(noClasses().that().resideInAPackage("io.ricochet.control.link..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.control.verdict..")
                .because("a detector's verdicts and watch list ride on the links, not the reverse"));
    }

    @Test
    void shouldKeepTheTwoDriversApart() {
        check(noClasses().that().resideInAPackage("io.ricochet.daemon..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.sim..")
                .because("what both drivers share lives in latency, membership and loss"));
        check(noClasses().that().resideInAPackage("io.ricochet.sim..").should().dependOnClassesThat()
                .resideInAPackage("io.ricochet.daemon..")
                .because("what both drivers share lives in latency, membership and loss"));
    }

    @Test
    void shouldKeepTheOtherModulesOutOfCore() {
        check(noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("io.ricochet.gms..", "io.ricochet.fd..", "io.ricochet.bench..")
                .because("the GMS, the failure detector and the bench build on ricochet-core, never the reverse"));
    }

    @Test
    void shouldKeepThePackagesFreeOfCycles() {
        check(slices().matching("io.ricochet.(*)..").should().beFreeOfCycles());
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = new String[first.length + more.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
