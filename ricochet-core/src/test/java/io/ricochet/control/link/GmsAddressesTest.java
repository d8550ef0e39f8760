package io.ricochet.control.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.control.codec.Messages;
import io.ricochet.daemon.DaemonSettings;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class GmsAddressesTest {
    private static final InetSocketAddress P0R0 = Messages.address("10.0.0.1", 7100);
    private static final InetSocketAddress P0R1 = Messages.address("10.0.0.2", 7100);
    private static final InetSocketAddress P1R0 = Messages.address("10.0.0.1", 7101);

    @Test
    void shouldReadPartitionsSeparatedByCommasAndReplicasBySlashes() {
        List<List<InetSocketAddress>> partitions = parse(" 10.0.0.1:7100 / 10.0.0.2:7100 ,10.0.0.1:7101");
        assertEquals(List.of(List.of(P0R0, P0R1), List.of(P1R0)), partitions);
        assertEquals("10.0.0.1:7100/10.0.0.2:7100,10.0.0.1:7101", GmsAddresses.format(partitions));
    }

    @Test
    void shouldReadOneReplicaPerPartitionAsBefore() {
        assertEquals(GmsAddresses.oneEach(List.of(P0R0, P1R0)), parse("10.0.0.1:7100,10.0.0.1:7101"));
    }

    @Test
    void shouldSayWhatIsWrongAndHowToWriteIt() {
        assertRefused("", "no GMS partition given: write each partition as its replicas host:port/host:port/...");
        assertRefused("10.0.0.1:7100,", "partition 1 is empty (two ',' in a row, or one at an end): write each");
        assertRefused("10.0.0.1:7100/", "partition 0 ('10.0.0.1:7100/') has an empty replica (two '/' in a row");
        assertRefused("10.0.0.1:7100,10.0.0.2", "replica '10.0.0.2' of partition 1: '10.0.0.2' is not host:port; "
                + "write each partition");
        assertRefused("10.0.0.1:7100/10.0.0.1:7100", "10.0.0.1:7100 is listed twice (in partition 0): every "
                + "replica of every partition has an address of its own");
        assertRefused("10.0.0.1:7100,10.0.0.2:7100/10.0.0.1:7100",
                "10.0.0.1:7100 is listed twice (in partitions 0 and 1)");
    }

    @Test
    void shouldRefuseNoPartitionOrAnEmptyOne() {
        assertThrows(IllegalArgumentException.class, () -> GmsAddresses.requireValid(List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GmsAddresses.requireValid(List.of(List.of(P0R0), List.of())));
        assertEquals("GMS partition 1 has no replica address", e.getMessage());
    }

    private static List<List<InetSocketAddress>> parse(String text) {
        return GmsAddresses.parse(text, DaemonSettings::endpoint);
    }

    private static void assertRefused(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(text), text);
        assertTrue(e.getMessage().startsWith(expected), text + ": " + e.getMessage());
    }
}
