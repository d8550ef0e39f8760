package io.ricochet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ricochet.api.NodeStats;
import io.ricochet.cli.StatsSource.Sample;
import io.ricochet.client.ApiAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopViewTest {
    private static final long SECOND_NS = 1_000_000_000L;

    private static NodeStats busy(long scale) {
        return SampleStats.node(1, "DATA_SENT", 100 * scale, "DATA_RECEIVED", 2_500 * scale,
                "REPAIRS_SENT", 50 * scale, "REPAIRS_RECEIVED", 45 * scale, "LOSSES_DETECTED", 20 * scale,
                "RECOVERED_BY_XOR", 15 * scale, "RECOVERED_BY_NAK", 5 * scale, "UNRECOVERED", 1,
                "RX_BUFFER_RANDOM_DROPS", 0, "MEMBER_FAILURES", 2);
    }

    @Test
    void shouldShowRatesRecoverySharesLatencyGmsAndFailuresInARow() {
        TopView.Row row = TopView.row(SampleStats.at(0, busy(1)), SampleStats.at(2 * SECOND_NS, busy(3)));

        assertEquals(List.of("3", "2.5k", "100", "45", "50", "20", "75", "25", "1", "1.25", "31.5", "12", "0",
                "2/2 t4", "2", "-"), row.cells());
    }

    @Test
    void shouldShowTheRepairsOfSenderBasedFecInTheRepairColumns() {
        TopView.Row row = TopView.row(SampleStats.at(0, fec(1)), SampleStats.at(SECOND_NS, fec(2)));

        assertEquals(List.of("30", "40", "10", "30"), row.cells().subList(3, 7), "repairs in and out, losses, "
                + "the share rebuilt from repairs");
    }

    private static NodeStats fec(long scale) {
        return SampleStats.node(1, "DATA_SENT", 100 * scale, "FEC_REPAIRS_SENT", 40 * scale,
                "FEC_REPAIRS_RECEIVED", 30 * scale, "LOSSES_DETECTED", 10 * scale, "FEC_RECOVERED", 3 * scale,
                "RECOVERED_BY_NAK", 7 * scale);
    }

    @Test
    void shouldShowDashesWhereThereIsNothingToCompareOrMeasure() {
        NodeStats bare = new NodeStats(9, 1, "srm", "nio", "none", 0, Map.of("DATA_SENT", 5L), 0, null, null,
                List.of(), Map.of(), null, null);

        TopView.Row row = TopView.row(null, SampleStats.at(SECOND_NS, bare));

        assertEquals(List.of("9", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"),
                row.cells());
    }

    @Test
    void shouldShowTheRateOfFireOfATunedNodeAsItsGroupsRangeOfC() {
        String why = ": target met (loss 0.100 %, LEC 91.0 %, node's evidence)";
        NodeStats tuned = withRateOfFire(busy(1), Map.of(7, "r 8, c 3.0, stagger 1" + why,
                9, "r 8, c 6.5, stagger 1" + why, 11, "r 8, c 4.0, stagger 1" + why));
        NodeStats even = withRateOfFire(busy(1), Map.of(7, "r 8, c 5.0, stagger 2" + why));

        assertEquals("8/3-6.5/1", TopView.row(null, SampleStats.at(0, tuned)).cells().get(15));
        assertEquals("8/5/2", TopView.row(null, SampleStats.at(0, even)).cells().get(15));
        assertEquals("-", TopView.rateOfFire(Map.of()), "tuning on, no group seen yet");
        assertEquals("-", TopView.rateOfFire(Map.of(7, "c five")), "a line of another format shows nothing");
    }

    private static NodeStats withRateOfFire(NodeStats s, Map<Integer, String> lines) {
        return new NodeStats(s.node(), s.incarnation(), s.protocol(), s.transport(), s.authentication(),
                s.socketReceiveBufferGranted(), s.counters(), s.xorsPerDataPacket(), s.daemon(), s.buffers(),
                s.groups(), s.members(), s.api(), s.gms(), s.takenAtNs(), s.takenAtEpochMs(), lines);
    }

    @Test
    void shouldLayOutTheTableAndSayWhyADaemonIsMissing() {
        TopView.Row up = TopView.row(SampleStats.at(0, busy(1)), SampleStats.at(SECOND_NS, busy(1)));
        TopView.Row down = TopView.row(null, new Sample(ApiAddress.parse("unix:/run/n2.sock"), null,
                "cannot connect", SECOND_NS));

        assertEquals(""
                + "NODE  IN/s  OUT/s  REP-IN/s  REP-OUT/s  LOSS/s  REP%  NAK%  LOST  P50ms  P99ms  RXBUF  DROP/s  "
                + "   GMS  FAILED  R/C/ST\n"
                + "3        0      0         0          0       0     -     -     1   1.25   31.5     12       0  "
                + "2/2 t4       2       -\n"
                + "unix:/run/n2.sock  unreachable: cannot connect\n", TopView.table(List.of(up, down)));
    }

    @Test
    void shouldSayWhichLeaderEachPartitionsDaemonsFollow() {
        NodeStats other = SampleStats.node(1);
        NodeStats cutOff = new NodeStats(4, 1, "ricochet", "epoll", "HMAC", 0, Map.of(), 0, null, null, List.of(),
                Map.of(), null, Map.of(0, new NodeStats.GmsLink(false, "198.18.0.200:7100", 4, 90)));

        List<String> lines = TopView.gmsLines(List.of(SampleStats.at(0, other), SampleStats.at(0, busy(1)),
                SampleStats.at(0, cutOff)));

        assertEquals(List.of("gms p0: 198.18.0.200:7100 term 4 (2 nodes), down (1 node)",
                "gms p1: 198.18.0.201:7101 term 3 (2 nodes)"), lines);
    }

    @Test
    void shouldWriteNumbersCompactly() {
        assertEquals("0", TopView.compact(0));
        assertEquals("0.5", TopView.compact(0.5));
        assertEquals("312", TopView.compact(312.4));
        assertEquals("4.2k", TopView.compact(4_200));
        assertEquals("37k", TopView.compact(37_000));
        assertEquals("1.5M", TopView.compact(1_500_000));
        assertEquals("-", TopView.compact(Double.NaN));
        assertEquals("0.42", TopView.millis(0.42));
        assertEquals("130", TopView.millis(130.2));
    }
}
