package io.ricochet.gms;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The GMS's layering (ArchUnit, over its main classes): the membership state is a pure function of the requests
 * it is given, so it is tested without a network; the server uses the shared command-line support, not the
 * {@code ricochet} tool's commands, and the control protocol, not the engine.
 */
class GmsLayeringTest {
    /**
     * The packages of ricochet-core that carry packets: the protocols and their shared engine and frames, the two
     * drivers of an engine (daemon, simulator), the local API and its clients; and the other modules.
     */
    private static final String[] PACKET_PATH = {"io.ricochet.engine..", "io.ricochet.lec..", "io.ricochet.nak..",
        "io.ricochet.lecnak..", "io.ricochet.srm..", "io.ricochet.fec..", "io.ricochet.pbcast..",
        "io.ricochet.ipmc..", "io.ricochet.qsm..", "io.ricochet.fountain..", "io.ricochet.loss..",
        "io.ricochet.protocols..", "io.ricochet.wire..", "io.ricochet.daemon..", "io.ricochet.sim..",
        "io.ricochet.latency..", "io.ricochet.membership..", "io.ricochet.api..", "io.ricochet.client..",
        "io.ricochet.workload..", "io.ricochet.fd..", "io.ricochet.bench.."};

    private static final JavaClasses GMS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ricochet.gms");

    @Test
    void shouldKeepTheMembershipStateFreeOfNettySocketsAndClocks() {
        // Addresses are values the state hands out; sockets, channels and clocks are not.
        noClasses().that().haveSimpleNameStartingWith("MembershipState").or().haveSimpleNameStartingWith("GroupState")
                .or().haveSimpleNameStartingWith("Registration").or().haveSimpleNameStartingWith("MulticastPool")
                .or().haveSimpleNameStartingWith("Update").or().haveSimpleNameStartingWith("GmsRefusal")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "java.nio.channels..")
                .orShould().dependOnClassesThat().haveNameMatching("java\\.net\\.(Server|Datagram|Multicast)?Socket")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(Instant.class, "now").orShould().callMethod(Thread.class, "sleep", long.class)
                .because("membership changes are decided from requests alone, so they replay the same way")
                .check(GMS);
    }

    @Test
    void shouldUseNeitherTheCommandLineToolNorTheEngine() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.ricochet.cli..", "io.ricochet.engine..",
                        "io.ricochet.daemon..")
                .because("shared picocli helpers live in io.ricochet.support; the GMS speaks io.ricochet.control")
                .check(GMS);
    }

    @Test
    void shouldKnowNoProtocolDriverOrApi() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(PACKET_PATH)
                .because("the GMS serves every protocol alike: it knows members, regions and the control protocol, "
                        + "never a frame, an engine or a daemon (they translate its views)")
                .check(GMS);
    }
}
