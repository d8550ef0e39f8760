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
    /**
     * The packages of ricochet-core that a detector has no use for: the protocols and their shared engine, the two
     * drivers of an engine (daemon, simulator), the local API and its clients; and the other modules. The frames
     * ({@code io.ricochet.wire}: its HEARTBEAT) and their authentication ({@code io.ricochet.auth}) it shares.
     */
    private static final String[] PACKET_PATH = {"io.ricochet.engine..", "io.ricochet.lec..", "io.ricochet.nak..",
        "io.ricochet.lecnak..", "io.ricochet.srm..", "io.ricochet.fec..", "io.ricochet.pbcast..",
        "io.ricochet.ipmc..", "io.ricochet.qsm..", "io.ricochet.fountain..", "io.ricochet.loss..",
        "io.ricochet.protocols..", "io.ricochet.daemon..", "io.ricochet.sim..",
        "io.ricochet.latency..", "io.ricochet.membership..", "io.ricochet.api..", "io.ricochet.client..",
        "io.ricochet.workload..", "io.ricochet.gms..", "io.ricochet.bench.."};

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

    @Test
    void shouldKnowNoProtocolDriverOrApi() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(PACKET_PATH)
                .because("a detector pings daemons with the shared HEARTBEAT frame and reports to the GMS over the "
                        + "control protocol, whatever protocol the daemons run")
                .check(FD);
    }
}
